import Foundation
import KilnModel

extension APIClient {
    /// Reads `endpoint`'s answer as Server-Sent Events (`text/event-stream`), decoding each
    /// event's data into `Value` on its own, with its own repair log.
    ///
    /// A dropped connection, or a stream the server closes, is made again after the server's
    /// `retry:` time (see ``Reconnection``), sending the last event ID as `Last-Event-ID`. The
    /// stream ends quietly on `204 No Content`, and with ``APIError/http(status:body:)`` on any
    /// other answer than a success. An event whose data cannot be decoded is a failed
    /// ``StreamItem``; the stream goes on. The request asks for `text/event-stream` unless the
    /// endpoint names its own `Accept`; the endpoint's timeout is how long the stream may stay
    /// silent before it counts as dropped.
    ///
    /// ```swift
    /// struct Quote: Decodable, Sendable { var symbol = ""; var price = 0.0 }
    ///
    /// for try await update in client.events(Endpoint<Quote>.get("/quotes").timeout(60)) {
    ///     guard let quote = update.item?.value else { continue }
    ///     prices[quote.symbol] = quote.price
    /// }
    /// ```
    public func events<Value: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, reconnection: Reconnection = .standard
    ) -> ResponseStream<Value> {
        ResponseStream(client: self, endpoint: endpoint, format: .serverSentEvents, reconnection: reconnection) { [self] unit in
            guard case .event(let event) = unit else { return nil }
            return item(from: Data(event.data.utf8), for: endpoint, event: event)
        }
    }

    /// Reads `endpoint`'s answer as Server-Sent Events and delivers each event as it came, with
    /// its type, data and ID, reconnecting as ``events(_:reconnection:)`` does.
    ///
    /// ```swift
    /// for try await update in client.events(Endpoint<ServerSentEvent>.get("/build/log")) {
    ///     if let event = update.item?.value, event.type == "line" { log.append(event.data) }
    /// }
    /// ```
    public func events(
        _ endpoint: Endpoint<ServerSentEvent>, reconnection: Reconnection = .standard
    ) -> ResponseStream<ServerSentEvent> {
        ResponseStream(client: self, endpoint: endpoint, format: .serverSentEvents, reconnection: reconnection) { unit in
            guard case .event(let event) = unit else { return nil }
            return StreamItem(result: .success(event), event: event)
        }
    }

    /// Reads `endpoint`'s answer as JSON Lines (NDJSON: `application/x-ndjson`,
    /// `application/jsonl`): one JSON value per line, each decoded into `Value` on its own, with
    /// its own repair log, as soon as its line has arrived. Blank lines are skipped; a line that
    /// cannot be decoded is a failed ``StreamItem`` and the stream goes on. The stream ends when
    /// the response does.
    ///
    /// ```swift
    /// for try await record in client.jsonLines(Endpoint<LogRecord>.get("/logs/export")).items {
    ///     if let record = record.value { records.append(record) }
    /// }
    /// ```
    public func jsonLines<Value: Decodable & Sendable>(_ endpoint: Endpoint<Value>) -> ResponseStream<Value> {
        ResponseStream(client: self, endpoint: endpoint, format: .lines, reconnection: .never) { [self] unit in
            guard case .line(let line) = unit, line.contains(where: { !Self.isJSONWhitespace($0) }) else { return nil }
            return item(from: Data(line), for: endpoint, event: nil)
        }
    }

    /// Reads `endpoint`'s answer as lines of text (UTF-8), each delivered as soon as it ended.
    /// Lines end at LF, CR or CRLF; empty lines are delivered too. The stream ends when the
    /// response does; a last line without a line end is delivered when the body is complete.
    ///
    /// ```swift
    /// for try await line in client.lines(.get("/logs/tail")).items {
    ///     console.append(line.value ?? "")
    /// }
    /// ```
    public func lines(_ endpoint: Endpoint<String>) -> ResponseStream<String> {
        ResponseStream(client: self, endpoint: endpoint, format: .lines, reconnection: .never) { unit in
            guard case .line(let line) = unit else { return nil }
            return StreamItem(result: .success(String(decoding: line, as: UTF8.self)))
        }
    }

    /// Sends `endpoint` for a body read as it arrives; returns when the head has arrived.
    func openStream<Value>(_ endpoint: Endpoint<Value>) async throws(APIError) -> (AsyncThrowingStream<Data, any Error>, ResponseHead) {
        let exchange = try await exchange(for: endpoint, kind: .stream, progress: nil)
        guard case .stream(let body) = exchange.payload else {
            throw .transport(TransportError(.other, detail: "unexpected payload for a stream"))
        }
        return (body, exchange.head)
    }

    /// One item: `data` decoded as `endpoint` decodes its value.
    private func item<Value: Decodable & Sendable>(from data: Data, for endpoint: Endpoint<Value>, event: ServerSentEvent?) -> StreamItem<Value> {
        do throws(APIError) {
            let (value, repairs) = try decode(data, for: endpoint)
            return StreamItem(result: .success(value), repairs: repairs, event: event)
        } catch {
            return StreamItem(result: .failure(error), event: event)
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
