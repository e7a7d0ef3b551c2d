import Foundation

/// A `multipart/form-data` body of fields, in-memory data and files on disk.
///
/// Files are never loaded whole: the body is written to a temporary file by copying each source
/// in 64 KiB chunks, and that file is streamed to the server.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Holiday", name: "title")
/// form.append(jpegData, name: "cover", filename: "cover.jpg", mimeType: "image/jpeg")
/// form.append(fileAt: videoURL, name: "clip")              // MIME type from the extension
/// let endpoint = Endpoint<Album>.post("/albums", body: .multipart(form))
/// for try await event in client.upload(endpoint) { … }
/// ```
public struct MultipartFormData: Sendable {
    /// One part of the body.
    public struct Part: Sendable {
        /// Where a part's bytes come from.
        public enum Content: Sendable {
            /// Bytes in memory.
            case data(Data)
            /// A file on disk, read in chunks while the body is written.
            case file(URL)
        }

        /// The form field name.
        public var name: String
        /// The file name reported to the server, if any.
        public var filename: String?
        /// The part's `Content-Type`, if any (plain fields have none).
        public var mimeType: String?
        /// The bytes.
        public var content: Content

        /// Creates a part.
        public init(name: String, filename: String? = nil, mimeType: String? = nil, content: Content) {
            self.name = name
            self.filename = filename
            self.mimeType = mimeType
            self.content = content
        }
    }

    /// The boundary between parts.
    public var boundary: String
    /// The parts, in order.
    public var parts: [Part] = []

    /// Creates an empty form with a random boundary.
    public init(boundary: String = "kiln-boundary-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=…`
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a plain text field.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, content: .data(Data(value.utf8))))
    }

    /// Adds in-memory bytes, such as an image.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, mimeType: String = "application/octet-stream") {
        parts.append(Part(name: name, filename: filename ?? name, mimeType: mimeType, content: .data(data)))
    }

    /// Adds a file by path; its name and (unless given) its MIME type come from the URL.
    public mutating func append(fileAt url: URL, name: String, filename: String? = nil, mimeType: String? = nil) {
        parts.append(
            Part(
                name: name,
                filename: filename ?? url.lastPathComponent,
                mimeType: mimeType ?? Self.mimeType(forPathExtension: url.pathExtension),
                content: .file(url)
            ))
    }

    /// A MIME type for common file extensions, `application/octet-stream` otherwise.
    public static func mimeType(forPathExtension ext: String) -> String {
        switch ext.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "pdf": "application/pdf"
        case "json": "application/json"
        case "txt": "text/plain"
        case "csv": "text/csv"
        case "mp4": "video/mp4"
        case "mov": "video/quicktime"
        case "zip": "application/zip"
        default: "application/octet-stream"
        }
    }

    /// Writes the whole body to `url` (replacing it) and returns its length in bytes.
    ///
    /// - Throws: ``TransportError`` with reason ``TransportError/Reason/localFile`` when a source
    ///   file cannot be read or the body cannot be written.
    @discardableResult
    public func writeBody(to url: URL) throws -> Int64 {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw TransportError(.localFile, detail: "cannot create \(url.path)")
        }
        do {
            let output = try FileHandle(forWritingTo: url)
            defer { try? output.close() }
            var written: Int64 = 0
            func write(_ data: Data) throws {
                try output.write(contentsOf: data)
                written += Int64(data.count)
            }
            for part in parts {
                try write(Data(header(for: part).utf8))
                switch part.content {
                case .data(let data):
                    try write(data)
                case .file(let source):
                    let input = try FileHandle(forReadingFrom: source)
                    defer { try? input.close() }
                    while let chunk = try input.read(upToCount: 64 * 1024), !chunk.isEmpty {
                        try write(chunk)
                    }
                }
                try write(Data("\r\n".utf8))
            }
            try write(Data("--\(boundary)--\r\n".utf8))
            return written
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(.localFile, detail: String(describing: error))
        }
    }

    private func header(for part: Part) -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
        if let filename = part.filename {
            disposition += "; filename=\"\(Self.quoted(filename))\""
        }
        var lines = ["--\(boundary)", disposition]
        if let mimeType = part.mimeType {
            lines.append("Content-Type: \(mimeType)")
        }
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
