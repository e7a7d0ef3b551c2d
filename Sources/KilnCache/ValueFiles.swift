import Crypto
import Foundation
import KilnSupport

/// The folder of large values: one file per stored value, named by the SHA-256 of its key and a
/// random suffix, written to a temporary file and renamed into place so a reader never sees half
/// a value.
///
/// Every write gets a new name, so a file is never replaced under a committed row that names it:
/// the row that replaces a value commits with its own file, and the old file is deleted after
/// that commit. If the process dies in between, the committed row still finds the file it was
/// written with, and the new file, named by no row, is deleted by a later sweep once it is old
/// enough (see `DiskCache+Sweep.swift`).
///
/// Plain POSIX calls: each value costs one open, one write, one rename (or one open, one
/// read), which keeps large values close to the cost of the file system itself.
struct ValueFiles: Sendable {
    let directory: URL

    /// The start of every file name for `key`: 64 lowercase hex digits.
    static func prefix(for key: CacheKey) -> String {
        let digest = SHA256.hash(data: Data(key.rawValue.utf8))
        var name = ""
        name.reserveCapacity(64)
        for byte in digest {
            name += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return name
    }

    /// A name for a new file holding a value of `key`: its ``prefix(for:)``, a dot, and a random
    /// suffix.
    static func newName(for key: CacheKey) -> String {
        prefix(for: key) + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    /// The folder's path with a trailing slash, built once: `URL` path arithmetic costs more
    /// than the read of a small file.
    let directoryPath: String

    init(directory: URL) {
        self.directory = directory
        let path = directory.path
        self.directoryPath = path.hasSuffix("/") ? path : path + "/"
    }

    func path(of name: String) -> String {
        directoryPath + name
    }

    func createDirectory() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Writes `data` to a temporary file and renames it over `name`. Returns whether it worked.
    func write(_ data: Data, named name: String) -> Bool {
        let target = path(of: name)
        let temporary = target + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return false }
                let result = LibC.write(descriptor, base + offset, bytes.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += result
            }
            return true
        }
        let closed = close(descriptor) == 0
        guard written, closed, rename(temporary, target) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// The contents of `name`, or `nil` if it is missing, unreadable, or not `expectedCount`
    /// bytes long.
    /// What reading a value file found.
    enum ReadResult {
        /// The file's bytes, of the expected length.
        case value(Data)
        /// No such file.
        case missing
        /// The file has another length than was written, or ended early: its bytes are wrong.
        case damaged
        /// The file exists but cannot be opened or read right now (permissions, protected data,
        /// an I/O error, no memory): its bytes may be fine.
        case unreadable
    }

    func read(named name: String, expectedCount: Int) -> ReadResult {
        let descriptor = open(path(of: name), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? .missing : .unreadable }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unreadable }
        guard Int(status.st_size) == expectedCount else { return .damaged }
        guard expectedCount > 0 else { return .value(Data()) }
        // Uninitialized memory handed to `Data` as is: `Data(count:)` would zero it first.
        guard let buffer = malloc(expectedCount) else { return .unreadable }
        var offset = 0
        while offset < expectedCount {
            let result = LibC.read(descriptor, buffer + offset, expectedCount - offset)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                free(buffer)
                return result == 0 ? .damaged : .unreadable
            }
            offset += result
        }
        return .value(Data(bytesNoCopy: buffer, count: expectedCount, deallocator: .free))
    }

    func remove(named name: String) {
        unlink(path(of: name))
    }

    /// Whether the file `name` exists.
    func exists(named name: String) -> Bool {
        access(path(of: name), F_OK) == 0
    }

    /// The names of the files in the folder (temporary files included) last modified before
    /// `date`.
    func names(modifiedBefore date: Date) -> [String] {
        let limit = date.timeIntervalSince1970
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            var status = stat()
            guard stat(path(of: name), &status) == 0 else { return false }
            #if canImport(Darwin)
            let modified = status.st_mtimespec
            #else
            let modified = status.st_mtim
            #endif
            return Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9 < limit
        }
    }
}
