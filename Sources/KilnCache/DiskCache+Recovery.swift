import Foundation
import GRDB

/// How ``DiskCache`` survives damage and unavailability. A database proven damaged (SQLite
/// says it is corrupt or not a database, or it has another layout) is moved aside with its value
/// files and replaced by an empty one. A database that cannot be opened or read right now
/// (permissions, protected data on a locked device, I/O errors) is left exactly as it is: the
/// cache misses until a later use opens it again.
extension DiskCache {
    /// The folder a damaged database is moved to (replacing the previous one, so damage never
    /// piles up on disk).
    var brokenDirectory: URL {
        configuration.directory.appendingPathComponent("Broken", isDirectory: true)
    }

    /// Opens the database, rebuilding it once if it cannot be used. `writeLock` held.
    func openLocked() {
        do {
            try FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
            try files.createDirectory()
        } catch {
            setDatabase(nil)
            report(.databaseUnavailable(reason: "cannot create \(configuration.directory.path): \(error)"))
            return
        }
        do {
            let database = try makeDatabase()
            try loadStateLocked(from: database)
            setDatabase(database)
            let recovered = stateLock.withLock { () -> Bool in
                defer { nextOpenAttempt = nil }
                return nextOpenAttempt != nil
            }
            if recovered { report(.databaseAvailable) }
            scheduleSweepIfDue()
        } catch  where Self.isDamage(error) {
            rebuildLocked(reason: String(describing: error), closing: nil)
        } catch {
            // Unreadable, busy, out of space...: the file may be fine, so it is left alone and
            // this cache misses until a later use opens it. Another process holding it gives
            // it back soon: the next use tries again at once.
            becomeUnavailableLocked(reason: String(describing: error), closing: nil, retryingAtOnce: Self.isBusy(error))
        }
    }

    /// Closes the database without touching its files and misses until ``reopenIfDue()``
    /// opens it again, after ``Configuration/reopenInterval`` or, `retryingAtOnce`, on the
    /// next use. `writeLock` held.
    func becomeUnavailableLocked(reason: String, closing old: Connection?, retryingAtOnce: Bool = false) {
        let now = configuration.clock.now()
        let retry = retryingAtOnce ? now : now.addingTimeInterval(configuration.reopenInterval)
        stateLock.withLock {
            database = nil
            nextOpenAttempt = retry
            dropPendingLocked()
            accessed.removeAll()
        }
        old?.close()
        totals = Totals()
        report(.databaseUnavailable(reason: reason))
    }

    /// Tries to open an unavailable database again once ``Configuration/reopenInterval`` has
    /// passed. Returns whether the database is open. `writeLock` not held.
    @discardableResult
    func reopenIfDue() -> Bool {
        let now = configuration.clock.now()
        let due = stateLock.withLock { database == nil && (nextOpenAttempt.map { $0 <= now } ?? false) }
        guard due else { return stateLock.withLock { database != nil } }
        return writeLock.withLock {
            if stateLock.withLock({ database == nil }) { openLocked() }
            return stateLock.withLock { database != nil }
        }
    }

    /// Reacts to an error from `database`: damage rebuilds the database, a file that cannot be
    /// read right now closes it until it can, anything else is reported and the operation
    /// dropped. `writeLock` not held.
    func handle(_ error: Error, during operation: String, in database: Connection) {
        if Self.isDamage(error) || Self.isUnavailable(error) {
            writeLock.withLock { handleLocked(error, during: operation, in: database) }
        } else {
            report(.operationFailed(operation: operation, reason: String(describing: error)))
        }
    }

    /// ``handle(_:during:in:)`` with `writeLock` held.
    func handleLocked(_ error: Error, during operation: String, in database: Connection) {
        if Self.isDamage(error) || Self.isUnavailable(error) {
            // Another caller may have dealt with it already.
            guard stateLock.withLock({ self.database === database }) else { return }
            if Self.isDamage(error) {
                rebuildLocked(reason: "\(operation): \(error)", closing: database)
            } else {
                becomeUnavailableLocked(reason: "\(operation): \(error)", closing: database)
            }
        } else {
            report(.operationFailed(operation: operation, reason: String(describing: error)))
        }
    }

    /// Whether `error` proves the database file damaged: SQLite found it corrupt or not a
    /// database, or it has another layout. Only then is anything moved or deleted.
    static func isDamage(_ error: Error) -> Bool {
        if error is SchemaMismatch { return true }
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode)
    }

    /// Whether `error` says the file cannot be opened or read right now, though it may be
    /// intact: permissions, protected data on a locked device, an I/O error.
    static func isUnavailable(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_READONLY].contains(error.resultCode)
    }

    /// Moves the database, its WAL and the value files to ``brokenDirectory`` and opens an
    /// empty database. `writeLock` held.
    func rebuildLocked(reason: String, closing old: Connection?) {
        setDatabase(nil)
        stateLock.withLock {
            dropPendingLocked()
            accessed.removeAll()
        }
        old?.close()
        totals = Totals()
        let manager = FileManager.default
        let broken = brokenDirectory
        do {
            try? manager.removeItem(at: broken)
            try manager.createDirectory(at: broken, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] {
                let source = databaseURL.path + suffix
                if manager.fileExists(atPath: source) {
                    try manager.moveItem(atPath: source, toPath: broken.appendingPathComponent("cache.sqlite" + suffix).path)
                }
            }
            if manager.fileExists(atPath: files.directory.path) {
                try manager.moveItem(at: files.directory, to: broken.appendingPathComponent("Values", isDirectory: true))
            }
            try files.createDirectory()
            let database = try makeDatabase()
            try loadStateLocked(from: database)
            setDatabase(database)
            report(.databaseRecovered(reason: reason, movedTo: broken))
        } catch {
            report(.databaseUnavailable(reason: "\(reason); rebuilding failed: \(error)"))
        }
    }

    private func setDatabase(_ database: Connection?) {
        stateLock.withLock { self.database = database }
    }
}
