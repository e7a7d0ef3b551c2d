import Foundation
import KilnTesting
import KilnViewModel
import Observation
import Testing

@MainActor
@Observable
final class Counter {
    var count = 0
    var label = ""
    var unrelated = 0
}

@MainActor
@Suite("observe")
struct ObserveTests {
    @Test func callsOnceNowAndOncePerBurst() async {
        let counter = Counter()
        var calls: [String] = []
        let token = observeChanges { calls.append("\(counter.label)\(counter.count)") }
        #expect(calls == ["0"])

        // One burst: three changes in one synchronous stretch of main-actor code.
        counter.count = 1
        counter.label = "n="
        counter.count = 2
        #expect(await eventually { calls.count == 2 })
        await settle()
        #expect(calls == ["0", "n=2"], "one call per burst, seeing the final values")

        counter.count = 3
        #expect(await eventually { calls.count == 3 })
        await settle()
        #expect(calls == ["0", "n=2", "n=3"])
        token.cancel()
    }

    @Test func ignoresValuesTheClosureDidNotRead() async {
        let counter = Counter()
        var calls = 0
        let token = observeChanges {
            _ = counter.count
            calls += 1
        }
        counter.unrelated += 1
        await settle()
        #expect(calls == 1)
        token.cancel()
    }

    @Test func neverCallsAfterCancel() async {
        let counter = Counter()
        var calls = 0
        let token = observeChanges {
            _ = counter.count
            calls += 1
        }
        counter.count = 1
        token.cancel() // a call is already scheduled: it must not run
        #expect(token.isCancelled)
        await settle()
        counter.count = 2
        await settle()
        #expect(calls == 1)
    }

    @Test func neverCallsAfterTheTokenIsReleased() async {
        let counter = Counter()
        var calls = 0
        var token: ObservationToken? = observeChanges {
            _ = counter.count
            calls += 1
        }
        #expect(token != nil)
        token = nil
        counter.count = 1
        await settle()
        #expect(calls == 1)
    }

    @Test func followsWhatTheLatestCallRead() async {
        let counter = Counter()
        var calls = 0
        let token = observeChanges {
            calls += 1
            if counter.count > 0 { _ = counter.label }
        }
        counter.label = "ignored while count is 0"
        await settle()
        #expect(calls == 1)
        counter.count = 1
        #expect(await eventually { calls == 2 })
        counter.label = "read now"
        #expect(await eventually { calls == 3 })
        token.cancel()
    }

    @Test func changesFromAnotherTaskAreDeliveredOnTheMainActor() async {
        let counter = Counter()
        var seen: [Int] = []
        let token = observeChanges {
            MainActor.assertIsolated()
            seen.append(counter.count)
        }
        await Task.detached { await MainActor.run { counter.count = 5 } }.value
        #expect(await eventually { seen == [0, 5] })
        token.cancel()
    }
}

/// Stands in for `NSObject` on Linux, where Foundation's `NSObject` has no key-value observing:
/// the same-named method that hides a free `observe` function inside every Apple view controller.
@MainActor
class KeyValueObservingObject: NSObject {
    func observe<Value>(_ keyPath: KeyPath<KeyValueObservingObject, Value>, options: Int = 0, changeHandler: @escaping () -> Void) -> Int {
        0
    }
}

/// A view controller as an app writes it: observing a view model from inside an NSObject subclass.
@MainActor
final class CounterViewController: KeyValueObservingObject {
    let counter: Counter
    private(set) var rendered: [Int] = []
    private var observation: ObservationToken?

    init(counter: Counter) {
        self.counter = counter
        super.init()
    }

    func viewDidLoad() {
        // Unqualified, as the documentation writes it: `observe { … }` does not compile here.
        observation = observeChanges { [weak self] in
            guard let self else { return }
            rendered.append(counter.count)
        }
    }
}

@MainActor
@Suite("observeChanges inside NSObject subclasses")
struct ObserveInsideNSObjectTests {
    @Test func aViewControllerObservesItsModelUnqualified() async {
        let counter = Counter()
        let controller = CounterViewController(counter: counter)
        controller.viewDidLoad()
        #expect(controller.rendered == [0])
        counter.count = 4
        #expect(await eventually { controller.rendered == [0, 4] })
    }
}
