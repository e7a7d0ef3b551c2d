import Foundation

extension DiskCache {
    /// Something a ``DiskCache`` recovered from, reported through
    /// ``Configuration/onEvent`` for logging.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The database could not be used; it was moved to `movedTo` (with its value files) and
        /// an empty one was created in its place.
        case databaseRecovered(reason: String, movedTo: URL)
        /// The database could not be used and could not be rebuilt; the cache answers every read
        /// with a miss and drops every write until it is created again.
        case databaseUnavailable(reason: String)
        /// The file holding a large value was missing; the entry was removed.
        case valueFileMissing(key: CacheKey)
        /// The file holding a large value had the wrong length or checksum; the entry was removed.
        case valueFileCorrupt(key: CacheKey)
        /// A write or removal failed and was dropped.
        case operationFailed(operation: String, reason: String)

        /// A one-line description for logs.
        public var description: String {
            switch self {
            case let .databaseRecovered(reason, movedTo):
                return "cache database rebuilt (\(reason)); the damaged one was moved to \(movedTo.path)"
            case let .databaseUnavailable(reason):
                return "cache database unavailable (\(reason)); every read is a miss"
            case let .valueFileMissing(key):
                return "cache value file missing for \(key); entry removed"
            case let .valueFileCorrupt(key):
                return "cache value file damaged for \(key); entry removed"
            case let .operationFailed(operation, reason):
                return "cache \(operation) failed (\(reason)); dropped"
            }
        }
    }
}
