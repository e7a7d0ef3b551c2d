import Foundation
import KilnSupport

/// A file that a download put in place.
public struct DownloadedFile: Sendable, Hashable {
    /// Where the file is now (the destination you gave).
    public var url: URL
    /// Its size in bytes.
    public var byteCount: Int64
    /// The status and headers of the response.
    public var head: ResponseHead
}

extension APIClient {
    /// Downloads the body of `endpoint` to `destination`, reporting bytes received.
    ///
    /// The body is written to a temporary file and moved to `destination` only when it is complete
    /// and, when the server sent a `Content-Length` for an uncompressed body, of that size. A
    /// compressed body (`Content-Encoding: gzip`, `deflate`, `br`) is saved decompressed. On any
    /// failure nothing changes at `destination`: a file already there is replaced, in one rename,
    /// only on success. Envelopes do not
    /// apply; a non-2xx status fails with ``APIError/http(status:body:)``. The endpoint's
    /// `Response` type is not used.
    ///
    /// ```swift
    /// let endpoint = Endpoint<Data>.get("/files/manual.pdf")
    /// for try await event in client.download(endpoint, to: documents.appendingPathComponent("manual.pdf")) {
    ///     switch event {
    ///     case .progress(let p): bar.progress = p.fraction ?? 0
    ///     case .finished(let file): open(file.url)
    ///     }
    /// }
    /// ```
    public func download<Value>(_ endpoint: Endpoint<Value>, to destination: URL) -> AsyncThrowingStream<TransferEvent<DownloadedFile>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<TransferEvent<DownloadedFile>, any Error>.makeStream()
        let task = Task {
            let reporter = MonotonicProgress { continuation.yield(.progress($0)) }
            do throws(APIError) {
                let file = try await download(endpoint, to: destination, reporter: reporter)
                reporter.completeIfNeeded(byteCount: file.byteCount)
                continuation.yield(.finished(file))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func download<Value>(_ endpoint: Endpoint<Value>, to destination: URL, reporter: MonotonicProgress) async throws(APIError) -> DownloadedFile {
        let exchange = try await exchange(for: endpoint, kind: .download, progress: { reporter.report($0) })
        guard case .file(let temporary) = exchange.payload else {
            throw .transport(TransportError(.other, detail: "unexpected in-memory payload"))
        }
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            let size = try Self.fileSize(temporary)
            // A compressed body arrives decompressed: its Content-Length counts other bytes.
            let encoding = exchange.head.header("Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased() ?? "identity"
            if encoding == "identity",
                let declared = exchange.head.header("Content-Length").flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }),
                declared != size
            {
                throw APIError.transport(TransportError(.connectionLost, detail: "received \(size) of \(declared) bytes"))
            }
            if Task.isCancelled { throw APIError.cancelled }
            try Self.replace(destination, with: temporary)
            return DownloadedFile(url: destination, byteCount: size, head: exchange.head)
        } catch let error as APIError {
            throw error
        } catch {
            throw .transport(TransportError(.localFile, detail: String(describing: error)))
        }
    }

    /// Puts `file` at `destination` in one step: a file already there is replaced by a rename
    /// (atomic within a file system), so it is either the old file or the new one, never gone.
    /// `file` is first moved beside `destination`, onto the same file system.
    static func replace(_ destination: URL, with file: URL) throws {
        let manager = FileManager.default
        let folder = destination.deletingLastPathComponent()
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let staged = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        try manager.moveItem(at: file, to: staged)
        guard rename(staged.path, destination.path) == 0 else {
            let code = errno
            try? manager.removeItem(at: staged)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    static func fileSize(_ url: URL) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}
