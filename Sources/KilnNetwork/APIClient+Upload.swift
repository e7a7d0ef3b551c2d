import Foundation

extension APIClient {
    /// Sends `endpoint` (usually with a ``RequestBody/multipart(_:)`` body) and reports the bytes
    /// sent, ending with the decoded response.
    ///
    /// Progress never goes backwards (a retried upload holds its bar until it passes the previous
    /// mark) and reaches 100% before `.finished`. The stream throws ``APIError``. Stopping the
    /// iteration or cancelling its task cancels the upload.
    ///
    /// ```swift
    /// var form = MultipartFormData()
    /// form.append(photo, name: "photo", filename: "photo.jpg", mimeType: "image/jpeg")
    /// form.append(fileAt: logURL, name: "log")
    /// form.append("42", name: "albumID")
    /// for try await event in client.upload(Endpoint<UploadResult>.post("/upload", body: .multipart(form))) {
    ///     switch event {
    ///     case .progress(let p): progress = p.fraction ?? 0
    ///     case .finished(let result): done(result)
    ///     }
    /// }
    /// ```
    public func upload<Value: Decodable & Sendable>(_ endpoint: Endpoint<Value>) -> AsyncThrowingStream<TransferEvent<Value>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<TransferEvent<Value>, any Error>.makeStream()
        let task = Task {
            let reporter = MonotonicProgress { continuation.yield(.progress($0)) }
            do throws(APIError) {
                let body = try await validatedBody(for: endpoint, progress: { reporter.report($0) }, readsValue: true)
                let decoded = try decode(body, for: endpoint)
                reporter.completeIfNeeded()
                continuation.yield(.finished(decoded.value))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
