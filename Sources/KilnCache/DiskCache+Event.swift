import Foundation

extension DiskCache {
    /// Something a ``DiskCache`` recovered from, reported through
    /// ``Configuration/onEvent`` for logging.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The database could not be used; it was moved to `movedTo` (with its value files) and
        /// an empty one was created in its place.
        case databaseRecovered(reason: String, movedTo: URL)
        /// The database cannot be opened or read right now (permissions, protected data on a
        /// locked device, a full or busy disk) or could not be rebuilt. Nothing was moved or
        /// deleted: the cache answers every read with a miss and drops every write, and tries to
        /// open the database again after ``Configuration/reopenInterval``.
        case databaseUnavailable(reason: String)
        /// The database could be opened again after being unavailable; its entries are back.
        case databaseAvailable
        /// The file holding a large value was missing; the entry was removed.
        case valueFileMissing(key: CacheKey)
        /// The file holding a large value had the wrong length or checksum; the entry was removed.
        case valueFileCorrupt(key: CacheKey)
        /// The file holding a large value exists but cannot be read right now (permissions,
        /// protected data); the read was a miss and the entry was kept.
        case valueFileUnreadable(key: CacheKey)
        /// A small value stored in the database did not match its checksum; the entry was removed.
        case valueCorrupt(key: CacheKey)
        /// A value larger than ``Configuration/byteLimit`` was not stored (and the older value
        /// of its key was removed); the rest of the cache was kept.
        case valueTooLarge(key: CacheKey, bytes: Int)
        /// A write or removal failed and was dropped.
        case operationFailed(operation: String, reason: String)
        /// Another process sharing the folder held the database through every attempt to
        /// commit `writes` buffered writes (see ``Configuration/busyTimeout``). Nothing was
        /// dropped: the writes stay in the buffer, reads see them, and the next flush commits
        /// them.
        case commitDelayed(writes: Int, reason: String)
        /// `count` value files that no entry named, left by a process that ended between
        /// writing a value and committing it, were deleted. Only files older than an hour are
        /// taken (another process sharing the folder may be about to commit a newer one), by a
        /// sweep in the background at most once an hour for the folder.
        case orphanedValueFilesRemoved(count: Int)

        /// A one-line description for logs.
        public var description: String {
            switch self {
            case let .databaseRecovered(reason, movedTo):
                return "cache database rebuilt (\(reason)); the damaged one was moved to \(movedTo.path)"
            case let .databaseUnavailable(reason):
                return "cache database unavailable (\(reason)); every read is a miss until it can be opened"
            case .databaseAvailable:
                return "cache database available again"
            case let .valueFileMissing(key):
                return "cache value file missing for \(key); entry removed"
            case let .valueFileCorrupt(key):
                return "cache value file damaged for \(key); entry removed"
            case let .valueFileUnreadable(key):
                return "cache value file unreadable for \(key); a miss, entry kept"
            case let .valueCorrupt(key):
                return "cache value damaged for \(key); entry removed"
            case let .valueTooLarge(key, bytes):
                return "cache value for \(key) not stored: \(bytes) bytes is over the byte limit"
            case let .operationFailed(operation, reason):
                return "cache \(operation) failed (\(reason)); dropped"
            case let .commitDelayed(writes, reason):
                return "cache commit of \(writes) writes delayed (\(reason)); kept for the next flush"
            case let .orphanedValueFilesRemoved(count):
                return "cache removed \(count) value files no entry named (left by a process that ended before committing them)"
            }
        }
    }
}
