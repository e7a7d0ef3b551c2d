import Foundation
import GRDB
import GRDBSQLite

/// The SQL side of ``DiskCache``: schema, reading a row, committing the write buffer, trimming.
extension DiskCache {
    /// The layout of the database, kept in its `user_version`. A file of any other format is
    /// discarded and rebuilt empty (``DiskCache/Event/databaseRecovered(reason:movedTo:)``), as
    /// a cache may be: formats 1 and 2 could hold small values with no checksum (0), which this
    /// format has no way to serve.
    static let databaseFormat = 3

    /// A row of the `entry` table, without its key. Dates are seconds since the reference date,
    /// as stored.
    struct StoredRow {
        /// The value, for a row without a file (empty otherwise).
        var inlineValue: Data
        var file: String?
        /// The value's length, with `sample`, read only for a row with a file.
        var size: Int
        /// The checksum of the value (of a small value: ``Checksum/ofInline(_:)``).
        var checksum: Int64
        var sample: Int64
        var expiresAt: Double?
        var schemaVersion: Int
        var accessSequence: Int64
        /// Read for a row with a file or by a complete lookup (0 otherwise).
        var storedAt: Double
        /// Read only by a complete lookup (empty otherwise).
        var metadata: [String: String]
    }

    /// Creates the schema in an empty file: every statement is `IF NOT EXISTS`, and it runs in
    /// the write transaction that checked the format, so two processes opening one new folder at
    /// once create it once.
    ///
    /// The `totals` row holds the count and bytes of every process's entries, kept by triggers
    /// in the transaction that changes `entry`, so limits hold across processes without
    /// counting rows; its `sweptAt` is when value files were last swept (see
    /// ``sweepOrphanedFiles()``). The row itself is inserted by ``createSchema(_:sweptAt:)``.
    static let schemaSQL = """
        CREATE TABLE IF NOT EXISTS entry (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL,
            value BLOB,
            file TEXT,
            size INTEGER NOT NULL,
            checksum INTEGER NOT NULL,
            sample INTEGER NOT NULL,
            storedAt DOUBLE NOT NULL,
            expiresAt DOUBLE,
            schemaVersion INTEGER NOT NULL,
            metadata TEXT,
            accessSequence INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS entry_on_accessSequence ON entry(accessSequence);
        CREATE TABLE IF NOT EXISTS totals (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            count INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            sweptAt DOUBLE NOT NULL
        );
        CREATE TRIGGER IF NOT EXISTS entry_inserted AFTER INSERT ON entry
        BEGIN UPDATE totals SET count = count + 1, bytes = bytes + NEW.size; END;
        CREATE TRIGGER IF NOT EXISTS entry_deleted AFTER DELETE ON entry
        BEGIN UPDATE totals SET count = count - 1, bytes = bytes - OLD.size; END;
        CREATE TRIGGER IF NOT EXISTS entry_resized AFTER UPDATE OF size ON entry
        BEGIN UPDATE totals SET bytes = bytes - OLD.size + NEW.size; END;
        """

    static let entryColumns = [
        "id", "key", "value", "file", "size", "checksum", "sample", "storedAt", "expiresAt", "schemaVersion", "metadata",
        "accessSequence",
    ]

    /// What a lookup reads, in the order ``readRow(_:id:in:complete:)`` expects. The quick one
    /// leaves out the metadata: every text column selected costs a copy in `sqlite3_step`,
    /// whether it is read or not.
    static let lookupSQL = "SELECT \(lookupColumns) FROM entry WHERE id = ?"
    static let completeLookupSQL = "SELECT \(lookupColumns), metadata FROM entry WHERE id = ?"
    private static let lookupColumns = "key, value, file, size, checksum, sample, expiresAt, schemaVersion, accessSequence, storedAt"

    /// An insert, or an update of the row in place: `INSERT OR REPLACE` would delete the old
    /// row without running the delete trigger that keeps `totals`.
    static let upsertSQL = """
        INSERT INTO entry (id, key, value, file, size, checksum, sample, storedAt, expiresAt, schemaVersion, metadata, accessSequence)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET
            key = excluded.key, value = excluded.value, file = excluded.file, size = excluded.size,
            checksum = excluded.checksum, sample = excluded.sample, storedAt = excluded.storedAt,
            expiresAt = excluded.expiresAt, schemaVersion = excluded.schemaVersion, metadata = excluded.metadata,
            accessSequence = excluded.accessSequence
        """

    /// The row id of `key`: a 64-bit hash of its bytes, so a lookup is one search of the
    /// table's own b-tree (no separate index on the text). Two keys with the same hash share
    /// the row, and the stored key text tells them apart: a read of the other one is a miss.
    static func rowID(for key: CacheKey) -> Int64 {
        var raw = key.rawValue
        return raw.withUTF8 { Checksum.of(UnsafeRawBufferPointer($0)) }
    }

    /// Opens the database at `databaseURL`, creating the schema in a new file and checking it
    /// in an old one. Throws on a file that is damaged, not a database, or of another format.
    ///
    /// One `DatabaseQueue` (one connection) rather than a `DatabasePool`: a lookup is one short
    /// statement, and the pool's reader checkout cost more than the lookup itself in
    /// `CacheBench`. With a single connection the file can be held in exclusive locking mode,
    /// which spares the file-lock system calls SQLite otherwise makes around every read. The
    /// price: a lookup waits while a batch commits (a few milliseconds at most), and no other
    /// process can open the cache while it is open. Being alone on the file also lets lookups
    /// keep a read transaction open between calls (see ``Connection``).
    ///
    /// Another process opening the same new folder at the same moment can hold the file while
    /// this one sets it up; what it holds is given back within
    /// ``Configuration/busyTimeout``, and an open still told the file is busy is tried again,
    /// up to ``busyAttempts`` times.
    func makeDatabase() throws -> Connection {
        try retryingWhileBusy(openDatabase)
    }

    /// How many times an open or a write transaction that finds the file busy is tried, each
    /// waiting up to ``Configuration/busyTimeout`` for the other connection.
    static let busyAttempts = 5

    /// Runs `body` again while it throws a busy error, up to ``busyAttempts`` times in all.
    func retryingWhileBusy<T>(_ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch  where Self.isBusy(error) && attempt < Self.busyAttempts {
                attempt += 1
            }
        }
    }

    /// Whether `error` says another connection holds the file (after the busy timeout).
    static func isBusy(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode)
    }

    private func openDatabase() throws -> Connection {
        var grdb = GRDB.Configuration()
        grdb.busyMode = .timeout(configuration.busyTimeout)
        #if os(iOS)
        // GRDB would release memory on the connection from its own queue; lookups use the
        // connection outside that queue (see `Connection`), so every access must be ours.
        grdb.automaticMemoryManagement = false
        #endif
        let locking = configuration.locking
        grdb.prepareDatabase { db in
            if locking == .exclusive {
                try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            }
            // WAL + NORMAL: a commit survives a crash of the app; a power loss may roll back
            // the last commits, never corrupt the file. Right for a cache.
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let database = try DatabaseQueue(path: databaseURL.path, configuration: grdb)
        let now = configuration.clock.now().timeIntervalSinceReferenceDate
        // GRDB's write transactions are IMMEDIATE: the format is read with the write lock held,
        // so a process that finds an empty file creates the schema before any other looks.
        try database.write { db in
            let format = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            switch format {
            case 0 where tables.isEmpty:
                // Nothing to sweep in a new file: the first sweep is due a grace period from now.
                try Self.createSchema(db, sweptAt: now)
            case Self.databaseFormat where tables.isSuperset(of: ["entry", "totals"]):
                break
            default:
                // Another format (an older one, or a newer one this version cannot read): the
                // file is moved aside and replaced (see `isDamage`).
                throw SchemaMismatch(found: format)
            }
            guard try db.columns(in: "entry").map(\.name) == Self.entryColumns else { throw SchemaMismatch(found: format) }
        }
        return try Connection(database, keepsReadTransaction: configuration.locking == .exclusive)
    }

    /// Creates what ``schemaSQL`` creates, and the `totals` row from the entries there are.
    /// Inside the write transaction that read the format.
    private static func createSchema(_ db: Database, sweptAt: Double) throws {
        try db.execute(sql: schemaSQL)
        try db.execute(
            sql: "INSERT OR IGNORE INTO totals (id, count, bytes, sweptAt) SELECT 1, count(*), total(size), ? FROM entry",
            arguments: [sweptAt]
        )
        try db.execute(sql: "PRAGMA user_version = \(databaseFormat)")
    }

    struct SchemaMismatch: Error, CustomStringConvertible {
        var found: Int
        var description: String { "database format \(found), expected \(DiskCache.databaseFormat)" }
    }

    /// The committed totals of every process, from the `totals` row.
    static func readTotals(_ db: Database) throws -> Totals {
        let row = try Row.fetchOne(db, sql: "SELECT count, bytes FROM totals")
        return Totals(count: row?[0] ?? 0, bytes: row?[1] ?? 0)
    }

    /// Runs `updates` in a write transaction and takes the totals it committed (its own changes
    /// and every other process's before it): the one way the cache writes, so ``totals`` is
    /// always what the database said at the last commit. A transaction that finds the file
    /// busy is tried again (see ``retryingWhileBusy(_:)``), so `updates` may run more than once:
    /// each run must start from nothing. `writeLock` held.
    func writeTransaction<T>(in database: Connection, _ updates: (Database) throws -> T) throws -> T {
        var committed = Totals()
        let result = try retryingWhileBusy {
            try database.write { db in
                let result = try updates(db)
                committed = try Self.readTotals(db)
                return result
            }
        }
        totals = committed
        return result
    }

    /// Loads the committed totals, the LRU counter and when value files are next swept: a
    /// few rows, whatever the cache holds. `writeLock` held.
    func loadStateLocked(from database: Connection) throws {
        let (totals, maxSequence, sweptAt) = try database.read { db in
            let sweptAt = try Double.fetchOne(db, sql: "SELECT sweptAt FROM totals") ?? 0
            let maxSequence = try Int64.fetchOne(db, sql: "SELECT max(accessSequence) FROM entry") ?? 0
            return (try Self.readTotals(db), maxSequence, sweptAt)
        }
        self.totals = totals
        stateLock.withLock {
            sequence = max(sequence, maxSequence)
            nextSweep = Date(timeIntervalSinceReferenceDate: sweptAt + Self.orphanGracePeriod)
        }
    }

    /// Reads the row of `key`; `complete` adds its stored date and metadata.
    func readRow(_ key: CacheKey, id: Int64, in database: Connection, complete: Bool) throws -> StoredRow? {
        // The columns are read with the C API: GRDB's `Row` builds a column-name table per
        // cursor, which cost more than the lookup. With the system SQLite every column call
        // takes the connection's mutex, so only the columns this row needs are read.
        try database.lookup(complete: complete) { handle in
            sqlite3_bind_int64(handle, 1, id)
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return nil }
            guard code == SQLITE_ROW else {
                throw database.error(code, sql: complete ? Self.completeLookupSQL : Self.lookupSQL)
            }
            guard Self.text(handle, 0, equals: key.rawValue) else { return nil }
            let file = Self.text(handle, 2)
            var row = StoredRow(
                inlineValue: file == nil ? Self.blob(handle, 1) : Data(),
                file: file,
                size: 0,
                checksum: 0,
                sample: 0,
                expiresAt: sqlite3_column_type(handle, 6) == SQLITE_NULL ? nil : sqlite3_column_double(handle, 6),
                schemaVersion: Int(sqlite3_column_int64(handle, 7)),
                accessSequence: sqlite3_column_int64(handle, 8),
                storedAt: 0,
                metadata: [:]
            )
            // What ``removeDamaged(_:key:event:)`` matches to delete this very row.
            row.checksum = sqlite3_column_int64(handle, 4)
            row.storedAt = sqlite3_column_double(handle, 9)
            if file != nil {
                row.size = Int(sqlite3_column_int64(handle, 3))
                row.sample = sqlite3_column_int64(handle, 5)
            } else {
                row.size = row.inlineValue.count
            }
            if complete {
                row.metadata = Self.text(handle, 10).map(Self.decodeMetadata) ?? [:]
            }
            return row
        }
    }

    private static func text(_ handle: OpaquePointer, _ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private static func text(_ handle: OpaquePointer, _ column: Int32, equals string: String) -> Bool {
        guard let bytes = sqlite3_column_text(handle, column) else { return false }
        let count = Int(sqlite3_column_bytes(handle, column))
        var string = string
        return string.withUTF8 { utf8 in
            guard utf8.count == count else { return false }
            guard let base = utf8.baseAddress else { return true }
            return memcmp(base, bytes, count) == 0
        }
    }

    /// The bytes of a blob column; empty for NULL.
    private static func blob(_ handle: OpaquePointer, _ column: Int32) -> Data {
        // The pointer first, then the length: the order SQLite documents.
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// Commits the write buffer in one transaction, then trims to the limits. Recorded reads
    /// are written too when `recordingReads`, when trimming needs them, or when many have piled
    /// up. Returns whether the buffer is empty afterwards: `false` while the database is not
    /// open, or when another process held it through every attempt, in which case the batch
    /// stays in the buffer for the next flush. `writeLock` held.
    @discardableResult
    func flushLocked(recordingReads: Bool = false) -> Bool {
        let (batch, reads, database) = stateLock.withLock {
            flushScheduled = false
            return (pending, accessed, self.database)
        }
        let mustRecordReads = recordingReads || reads.count >= Self.maxRecordedReads
        guard !batch.isEmpty || (mustRecordReads && !reads.isEmpty) || isOverLimits(totals) else { return database != nil }
        guard let database else {
            // Nothing can be committed: the writes are dropped (the database's unavailability
            // was reported when it closed).
            stateLock.withLock { dropPendingLocked() }
            return false
        }
        var obsoleteFiles: [String] = []
        var writtenAgain: [String] = []
        var readsRecorded = false
        var shift: Int64 = 0
        do {
            try writeTransaction(in: database) { db in
                // A run that found the file busy may have begun: start again from nothing.
                for file in writtenAgain { files.remove(named: file) }
                obsoleteFiles = []
                writtenAgain = []
                readsRecorded = false
                shift = 0
                // Another process sharing the file may have used higher access sequences since
                // this one last committed: this batch's are moved after them, order kept, so
                // its writes and reads count as the most recent for trimming.
                let committedSequence = try Int64.fetchOne(db, sql: "SELECT max(accessSequence) FROM entry") ?? 0
                var lowest = reads.values.min() ?? .max
                for case .put(let staged) in batch.values { lowest = min(lowest, staged.sequence) }
                if lowest != .max, lowest <= committedSequence { shift = committedSequence + 1 - lowest }

                let select = try db.cachedStatement(sql: "SELECT file FROM entry WHERE id = ?")
                let upsert = try db.cachedStatement(sql: Self.upsertSQL)
                let delete = try db.cachedStatement(sql: "DELETE FROM entry WHERE id = ?")
                for (id, write) in batch {
                    let old = try Row.fetchOne(select, arguments: [id])
                    let oldFile: String? = old?[0]
                    var staged: Staged?
                    if case .put(var put) = write {
                        staged = put
                        if let file = put.file, !files.exists(named: file) {
                            // A sweep took the file for a leftover (it waited here longer than
                            // the grace period). No sweep runs while this transaction holds the
                            // write lock, so a file written now stays until its row commits.
                            let name = ValueFiles.newName(for: put.entry.key)
                            if files.write(put.entry.value, named: name) {
                                put.file = name
                                writtenAgain.append(name)
                                staged = put
                            } else {
                                report(.operationFailed(operation: "write of \(put.entry.key)", reason: "could not write its value file"))
                                staged = nil
                            }
                        }
                    }
                    if let staged {
                        let entry = staged.entry
                        try upsert.execute(arguments: [
                            id,
                            entry.key.rawValue,
                            staged.file == nil ? entry.value : nil,
                            staged.file,
                            entry.value.count,
                            staged.checksum,
                            staged.sample,
                            entry.storedAt.timeIntervalSinceReferenceDate,
                            entry.expiresAt?.timeIntervalSinceReferenceDate,
                            entry.schemaVersion,
                            entry.metadata.isEmpty ? nil : Self.encodeMetadata(entry.metadata),
                            staged.sequence + shift,
                        ])
                        if let oldFile, oldFile != staged.file { obsoleteFiles.append(oldFile) }
                    } else {
                        // A removal, or a write that did not happen: the older value must not
                        // be served either.
                        if old != nil { try delete.execute(arguments: [id]) }
                        if let oldFile { obsoleteFiles.append(oldFile) }
                    }
                }
                var totals = try Self.readTotals(db)
                if !reads.isEmpty, mustRecordReads || isOverLimits(totals) {
                    let touch = try db.cachedStatement(sql: "UPDATE entry SET accessSequence = ? WHERE id = ?")
                    for (id, sequence) in reads where batch[id] == nil {
                        try touch.execute(arguments: [sequence + shift, id])
                    }
                    readsRecorded = true
                }
                try trim(db, totals: &totals, removedFiles: &obsoleteFiles)
            }
        } catch  where Self.isBusy(error) {
            // Another process held the file through every attempt. Nothing is lost: the batch
            // and its files stay in the buffer, readable, and the next flush commits them.
            for file in writtenAgain { files.remove(named: file) }
            stateLock.withLock { scheduleFlushLocked() }
            report(.commitDelayed(writes: batch.count, reason: String(describing: error)))
            return false
        } catch {
            // The transaction rolled back: the committed rows and files are as before, and no
            // row names this batch's files.
            stateLock.withLock { dropPendingLocked() }
            handleLocked(error, during: "commit of \(batch.count) writes", in: database)
            for case .put(let staged) in batch.values {
                if let file = staged.file { files.remove(named: file) }
            }
            for file in writtenAgain { files.remove(named: file) }
            return false
        }
        stateLock.withLock {
            // Every set/remove holds `writeLock`, so nothing was added to the buffer meanwhile.
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
            sequence += shift
            if readsRecorded {
                // Keep the reads that happened while committing.
                for (id, sequence) in reads where accessed[id] == sequence {
                    accessed.removeValue(forKey: id)
                }
            }
        }
        for file in obsoleteFiles { files.remove(named: file) }
        return true
    }

    func isOverLimits(_ totals: Totals) -> Bool {
        if let countLimit = configuration.countLimit, totals.count > max(0, countLimit) { return true }
        if let byteLimit = configuration.byteLimit, totals.bytes > max(0, byteLimit) { return true }
        return false
    }

    /// Removes the least recently used rows until `totals`, the committed totals of every
    /// process, are within the limits.
    private func trim(_ db: Database, totals: inout Totals, removedFiles: inout [String]) throws {
        func isOver() -> Bool { isOverLimits(totals) }
        guard isOver() else { return }
        var victims: [(id: Int64, file: String?)] = []
        do {
            // Collect first, delete after: the cursor must be done before its table changes.
            let oldest = try Row.fetchCursor(db, sql: "SELECT id, size, file FROM entry ORDER BY accessSequence")
            while isOver(), let row = try oldest.next() {
                victims.append((row[0], row[2]))
                totals.count -= 1
                totals.bytes -= row[1] as Int
            }
        }
        let delete = try db.cachedStatement(sql: "DELETE FROM entry WHERE id = ?")
        for (id, file) in victims {
            try delete.execute(arguments: [id])
            if let file { removedFiles.append(file) }
        }
    }

    /// Deletes the committed rows matching `condition` (all rows if `nil`) and their files.
    /// `writeLock` held, buffer already flushed or cleared.
    func removeCommittedLocked(where condition: String? = nil, arguments: StatementArguments = []) {
        guard let database = stateLock.withLock({ self.database }) else { return }
        let filter = condition.map { " WHERE " + $0 } ?? ""
        do {
            let removedFiles = try writeTransaction(in: database) { db in
                let files = try String.fetchAll(
                    db, sql: "SELECT file FROM entry" + (filter.isEmpty ? " WHERE" : filter + " AND") + " file IS NOT NULL",
                    arguments: arguments
                )
                try db.execute(sql: "DELETE FROM entry" + filter, arguments: arguments)
                return files
            }
            // Only the files of the rows removed: a file no row names yet may be another
            // process's write on its way to its commit (see ``sweepOrphanedFiles()``).
            for file in removedFiles { files.remove(named: file) }
        } catch {
            handleLocked(error, during: "removal", in: database)
        }
    }

    /// Removes a row whose value turned out missing or damaged, unless it was replaced or
    /// removed since it was read, and reports `event` if it was removed. Returns whether it was.
    @discardableResult
    func removeDamaged(_ row: StoredRow, key: CacheKey, event: Event) -> Bool {
        writeLock.withLock {
            guard let database = stateLock.withLock({ self.database }) else { return false }
            do {
                let removed = try writeTransaction(in: database) { db -> Bool in
                    try db.execute(
                        sql: "DELETE FROM entry WHERE id = ? AND key = ? AND file IS ? AND checksum = ? AND size = ? AND storedAt = ?",
                        arguments: [Self.rowID(for: key), key.rawValue, row.file, row.checksum, row.size, row.storedAt]
                    )
                    return db.changesCount > 0
                }
                // Replaced or removed meanwhile, by this process or another: its file went with
                // it, which is no damage.
                guard removed else { return false }
                // Its own file: a newer write of the key has another name.
                if let file = row.file { files.remove(named: file) }
            } catch {
                handleLocked(error, during: "removal of a damaged entry", in: database)
                return false
            }
            report(event)
            return true
        }
    }

    static func encodeMetadata(_ metadata: [String: String]) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeMetadata(_ text: String) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String] ?? [:]
    }
}
