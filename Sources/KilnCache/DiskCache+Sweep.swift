import Foundation
import GRDB

/// Deleting value files no entry names: left by a process that ended between writing a value's
/// file and committing its row.
///
/// Such a file cannot be told from one that another process sharing the folder has just
/// written and is about to commit, except by its age: a sweep takes only files last modified
/// more than ``orphanGracePeriod`` ago, and checks which files rows name inside a write
/// transaction, so no commit lands between that check and the deletion. A commit in turn
/// checks, inside its own write transaction, that each of its files is still there, and writes
/// one again if a sweep took it (see ``flushLocked(recordingReads:)``): a write the cache
/// accepted is never committed without its file.
///
/// A sweep runs in the background, never while the cache opens: at most once per grace period
/// for the folder, whichever process runs it (the `sweptAt` of the `totals` row says when the
/// last one ran), started by an open, ``flush()`` or a timed commit that finds one due.
extension DiskCache {
    /// How old a value file no row names must be before a sweep deletes it: far longer than
    /// any write takes to reach its commit (``Configuration/flushInterval``).
    static let orphanGracePeriod: TimeInterval = 3600

    /// Starts a sweep in the background if one is due and none is under way. Not from `deinit`:
    /// the sweep keeps the cache alive while it runs.
    func scheduleSweepIfDue() {
        let now = configuration.clock.now()
        let due = stateLock.withLock { () -> Bool in
            guard database != nil, !sweepScheduled, let nextSweep, nextSweep <= now else { return false }
            sweepScheduled = true
            return true
        }
        guard due else { return }
        DispatchQueue.global(qos: .background).async { [weak self] in
            self?.sweepOrphanedFiles()
        }
    }

    /// Deletes the value files that no row names and that are older than ``orphanGracePeriod``,
    /// and reports how many as ``Event/orphanedValueFilesRemoved(count:)``, unless another
    /// process swept within the grace period. `writeLock` not held.
    func sweepOrphanedFiles() {
        defer { stateLock.withLock { sweepScheduled = false } }
        let now = configuration.clock.now()
        let cutoff = now.addingTimeInterval(-Self.orphanGracePeriod)
        // Listed before any lock is taken: the folder can be large, and a file listed here that
        // a row names by the time of the check below is kept.
        let candidates = files.names(modifiedBefore: cutoff)
        let removed: Int? = writeLock.withLock {
            guard let database = stateLock.withLock({ self.database }) else { return nil }
            do {
                return try writeTransaction(in: database) { db -> Int? in
                    let sweptAt = try Double.fetchOne(db, sql: "SELECT sweptAt FROM totals") ?? 0
                    guard sweptAt <= cutoff.timeIntervalSinceReferenceDate else {
                        stateLock.withLock { nextSweep = Date(timeIntervalSinceReferenceDate: sweptAt + Self.orphanGracePeriod) }
                        return nil
                    }
                    var removed = 0
                    if !candidates.isEmpty {
                        let named = try String.fetchSet(db, sql: "SELECT file FROM entry WHERE file IS NOT NULL")
                        for name in candidates where !named.contains(name) {
                            files.remove(named: name)
                            removed += 1
                        }
                    }
                    try db.execute(sql: "UPDATE totals SET sweptAt = ?", arguments: [now.timeIntervalSinceReferenceDate])
                    stateLock.withLock { nextSweep = now.addingTimeInterval(Self.orphanGracePeriod) }
                    return removed
                }
            } catch {
                // Not tried again before the next grace period: a failing sweep costs nothing
                // but the space of the files it leaves.
                stateLock.withLock { nextSweep = now.addingTimeInterval(Self.orphanGracePeriod) }
                handleLocked(error, during: "sweep of value files", in: database)
                return nil
            }
        }
        if let removed, removed > 0 { report(.orphanedValueFilesRemoved(count: removed)) }
    }
}
