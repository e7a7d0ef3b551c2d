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
        let token = observe { calls.append("\(counter.label)\(counter.count)") }
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
        let token = observe { _ = counter.count; calls += 1 }
        counter.unrelated += 1
        await settle()
        #expect(calls == 1)
        token.cancel()
    }

    @Test func neverCallsAfterCancel() async {
        let counter = Counter()
        var calls = 0
        let token = observe { _ = counter.count; calls += 1 }
        counter.count = 1
        token.cancel()          // a call is already scheduled: it must not run
        #expect(token.isCancelled)
        await settle()
        counter.count = 2
        await settle()
        #expect(calls == 1)
    }

    @Test func neverCallsAfterTheTokenIsReleased() async {
        let counter = Counter()
        var calls = 0
        var token: ObservationToken? = observe { _ = counter.count; calls += 1 }
        #expect(token != nil)
        token = nil
        counter.count = 1
        await settle()
        #expect(calls == 1)
    }

    @Test func followsWhatTheLatestCallRead() async {
        let counter = Counter()
        var calls = 0
        let token = observe {
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
        let token = observe {
            MainActor.assertIsolated()
            seen.append(counter.count)
        }
        await Task.detached { await MainActor.run { counter.count = 5 } }.value
        #expect(await eventually { seen == [0, 5] })
        token.cancel()
    }
}
