import Foundation
import GRDB

/// How ``DiskCache`` survives damage: a database it cannot use is moved aside with its value
/// files and replaced by an empty one.
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
        } catch where Self.isDamage(error) {
            rebuildLocked(reason: String(describing: error), closing: nil)
        } catch {
            // Busy (another cache or process holds the file), out of space...: the file may be
            // fine, so it is left alone and this cache works as an empty one.
            setDatabase(nil)
            report(.databaseUnavailable(reason: String(describing: error)))
        }
    }

    /// Reacts to an error from `database`: damage rebuilds the database, anything else is
    /// reported and the operation dropped. `writeLock` not held.
    func handle(_ error: Error, during operation: String, in database: Connection) {
        if Self.isDamage(error) {
            writeLock.withLock { handleLocked(error, during: operation, in: database) }
        } else {
            report(.operationFailed(operation: operation, reason: String(describing: error)))
        }
    }

    /// ``handle(_:during:in:)`` with `writeLock` held.
    func handleLocked(_ error: Error, during operation: String, in database: Connection) {
        if Self.isDamage(error) {
            // Another caller may have rebuilt it already.
            guard stateLock.withLock({ self.database === database }) else { return }
            rebuildLocked(reason: "\(operation): \(error)", closing: database)
        } else {
            report(.operationFailed(operation: operation, reason: String(describing: error)))
        }
    }

    /// Whether `error` says the database file is damaged or unusable (as opposed to full or busy).
    static func isDamage(_ error: Error) -> Bool {
        if error is SchemaMismatch { return true }
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_IOERR, .SQLITE_CANTOPEN].contains(error.resultCode)
    }

    /// Moves the database, its WAL and the value files to ``brokenDirectory`` and opens an
    /// empty database. `writeLock` held.
    func rebuildLocked(reason: String, closing old: Connection?) {
        setDatabase(nil)
        stateLock.withLock {
            pending.removeAll()
            pendingBytes = 0
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
