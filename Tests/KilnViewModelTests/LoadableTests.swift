import Foundation
import KilnNetwork
import KilnViewModel
import Testing
import KilnModel

@Suite("Loadable and LoadFailure")
struct LoadableTests {
    @Test func valueIsKeptWhileLoadingAndAfterFailure() {
        let failure = LoadFailure.network(TransportError(.offline))
        #expect(Loadable<Int>.idle.value == nil)
        #expect(Loadable.loading(previous: 1).value == 1)
        #expect(Loadable.loading(previous: 1).isRefreshing)
        #expect(!Loadable<Int>.loading(previous: nil).isRefreshing)
        #expect(Loadable.loaded(2).value == 2)
        #expect(Loadable.failed(failure, previous: 3).value == 3)
        #expect(Loadable.failed(failure, previous: 3).failure == failure)
        #expect(Loadable.failed(failure, previous: 3).map { $0 * 2 } == .failed(failure, previous: 6))
    }

    @Test func apiErrorsMapToTheScreensOutcomes() {
        #expect(LoadFailure(APIError.server(code: "4001", message: "余额不足")) == .server(code: "4001", message: "余额不足"))
        #expect(LoadFailure(APIError.server(code: "4001", message: "余额不足")).description == "余额不足")
        #expect(LoadFailure(APIError.transport(TransportError(.offline))).isNetworkFailure)
        #expect(LoadFailure(APIError.transport(TransportError(.offline))).description == "You appear to be offline.")
        #expect(LoadFailure(APIError.http(status: 503, body: Data())) == .http(status: 503))
        #expect(LoadFailure(APIError.decoding(path: "data.list", repairs: [])) == .unreadable(path: "data.list"))
        #expect(LoadFailure(TransportError(.timedOut)).isNetworkFailure)
        #expect(LoadFailure(ModelDecodingError.pathNotFound(path: "list")) == .unreadable(path: "list"))
        #expect(LoadFailure(ModelDecodingError.invalidJSON(message: "bad", offset: 0, line: 1, column: 1)) == .unreadable(path: ""))
        struct Item: Decodable { var id: Int }
        let foundation = #expect(throws: DecodingError.self) { try JSONDecoder().decode([Item].self, from: Data(#"[{"id": 1}, {"id": "x"}]"#.utf8)) }
        #expect(foundation.map(LoadFailure.init) == .unreadable(path: "1.id"))
        #expect(LoadFailure(APIError.notCached) == .notCached)
        #expect(!LoadFailure(APIError.notCached).isNetworkFailure)
        #expect(LoadFailure(APIError.notCached).description == APIError.notCached.description)
    }
}
