import Foundation
import KilnViewModel

/// Paged-list appends stay flat as the list grows: appending page 200 (onto 9,950 items) costs
/// about what appending page 1 or page 2 costs, because the list appends in place and
/// de-duplicates against a set of the keys it has seen, never touching the items already there.
///
/// Each page is 50 items from an in-memory loader, so the time is the list's own work (the load
/// task, de-duplication, the append, the observation a view would get), not the network's.
enum ListsBench {
    struct Item: Sendable, Identifiable {
        var id: Int
        var title: String
    }

    static let pageSize = 50
    static let k = 200

    @MainActor
    static func run() async throws {
        let samples = 41
        var firstPage: [Double] = []
        var secondPage: [Double] = []
        var pageK: [Double] = []
        var itemsBeforeK = 0

        // Warm up (first allocations, lazily initialised runtime state) outside the samples.
        for _ in 0..<5 {
            let (list, token) = makeList()
            for _ in 0..<3 { await list.loadNext() }
            await settle()
            token.cancel()
        }
        for _ in 0..<samples {
            let (list, token) = makeList()
            firstPage.append(await time { await list.loadNext() }) // page 1 onto an empty list
            await settle()
            secondPage.append(await time { await list.loadNext() }) // page 2 onto 50 items
            token.cancel()
        }
        for _ in 0..<samples {
            let (list, token) = makeList()
            for _ in 1..<k { await list.loadNext() }
            await settle()
            itemsBeforeK = list.items.count
            pageK.append(await time { await list.loadNext() }) // page k onto (k-1)×50 items
            precondition(list.items.count == itemsBeforeK + pageSize, "page \(k) did not append")
            token.cancel()
        }

        // Control: a view that keeps a copy of `items` (a snapshot it diffs against) makes every
        // append copy the whole list (copy-on-write). The bench must see that, or it measures nothing.
        var heldK: [Double] = []
        var heldOne: [Double] = []
        for _ in 0..<samples {
            let (list, token, snapshot) = makeListHoldingSnapshot()
            heldOne.append(await time { await list.loadNext() })
            await settle()
            for _ in 2..<k { await list.loadNext() }
            await settle()
            heldK.append(await time { await list.loadNext() })
            precondition(snapshot.items.count == list.items.count - pageSize || snapshot.items.count == list.items.count)
            token.cancel()
        }

        let one = median(firstPage), two = median(secondPage), kth = median(pageK)
        print("page size \(pageSize), de-duplicated by id, one observer reading the list; median of \(samples) runs")
        print("append page 1   onto     0 items: \(Measure.pad(Measure.format(one * 1e6, 1), 8)) µs")
        print("append page 2   onto    50 items: \(Measure.pad(Measure.format(two * 1e6, 1), 8)) µs")
        print("append page \(k) onto \(Measure.pad(String(itemsBeforeK), 5)) items: \(Measure.pad(Measure.format(kth * 1e6, 1), 8)) µs")
        print("ratio page \(k) / page 1: \(Measure.format(kth / one, 2))x   page \(k) / page 2: \(Measure.format(kth / two, 2))x")
        let hOne = median(heldOne), hK = median(heldK)
        print(
            "control, a view holding a copy of items: page 1 \(Measure.format(hOne * 1e6, 1)) µs, page \(k) \(Measure.format(hK * 1e6, 1)) µs, ratio \(Measure.format(hK / hOne, 2))x"
        )
    }

    @MainActor
    private static func makeList() -> (PagedList<Item>, ObservationToken) {
        let list = PagedList<Item>(pageSize: pageSize, endOfList: .shortPage, deduplication: .byID) { request in
            let start = (request.number - 1) * pageSize
            return Page(items: (start..<(start + pageSize)).map { Item(id: $0, title: "Article number \($0), a title longer than a small string") })
        }
        // What a view does: redraw from the list when it changes (reads, never copies, the items).
        let token = observeChanges { _ = (list.items.count, list.items.last?.id, list.phase) }
        return (list, token)
    }

    /// What a view that diffs against its last snapshot holds on to.
    @MainActor
    final class Snapshot {
        var items: [Item] = []
    }

    @MainActor
    private static func makeListHoldingSnapshot() -> (PagedList<Item>, ObservationToken, Snapshot) {
        let (list, _) = makeList()
        let snapshot = Snapshot()
        let token = observeChanges { snapshot.items = list.items }
        return (list, token, snapshot)
    }

    @MainActor
    private static func time(_ body: @MainActor () async -> Void) async -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Lets scheduled observation calls run outside the timed section.
    @MainActor
    private static func settle() async {
        for _ in 0..<10 { await Task.yield() }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
