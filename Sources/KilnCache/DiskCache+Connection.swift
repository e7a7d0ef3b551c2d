import Foundation
import GRDB
import GRDBSQLite
import KilnSupport

extension DiskCache {
    /// The cache's one SQLite connection: a GRDB `DatabaseQueue` for everything but lookups,
    /// and a fast path for lookups on the same connection.
    ///
    /// A lookup is one `SELECT` by row id, and in `CacheBench` the work around it cost as much
    /// as the search itself. Three things make up the difference:
    ///
    /// - **No queue hop.** A GRDB access runs its closure on the queue's dispatch queue, and on
    ///   Linux `DispatchQueue.sync` alone cost a fifth to a quarter of a lookup. Lookups take
    ///   ``Connection``'s lock instead and call the SQLite C API on the connection GRDB opened.
    ///   That is safe because every GRDB access to this connection (``write(_:)``,
    ///   ``read(_:)``, ``close()``) also runs with that lock held, so the connection is never
    ///   used from two threads at once, and GRDB makes no access of its own
    ///   (`automaticMemoryManagement` is off on iOS, where it would). The raw handle is
    ///   constant until ``close()``, which runs under the lock too.
    /// - **Statements prepared once**, finalized before the connection closes.
    /// - **A read transaction kept open** between lookups, begun by the first lookup and ended
    ///   by the next write. In autocommit mode each statement begins and ends a transaction of
    ///   its own, which cost about a tenth of a lookup. Keeping it open is safe because this is
    ///   the only connection to the file (exclusive locking mode, see
    ///   ``DiskCache/makeDatabase()``) and every write ends it first: a lookup never reads an
    ///   old snapshot, and nothing waits on it.
    final class Connection: @unchecked Sendable {
        // @unchecked: every stored property below `lock` is only touched with `lock` held.

        private let queue: DatabaseQueue
        private let lock = Lock()
        private let handle: OpaquePointer
        private var quickLookup: OpaquePointer?
        private var completeLookup: OpaquePointer?
        private var isClosed = false
        /// Whether lookups share one read transaction kept open between them (exclusive locking
        /// only: under normal locking an open transaction holds a lock on the file).
        private let keepsReadTransaction: Bool

        /// Takes over `queue`'s connection for lookups.
        init(_ queue: DatabaseQueue, keepsReadTransaction: Bool) throws {
            self.queue = queue
            self.keepsReadTransaction = keepsReadTransaction
            self.handle = try queue.inDatabase { db in
                guard let handle = db.sqliteConnection else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database is closed")
                }
                return handle
            }
        }

        deinit {
            // Finalized before the queue closes its connection.
            finalizeStatements()
        }

        /// Runs `body` with the prepared lookup statement (`complete` picks
        /// ``DiskCache/completeLookupSQL`` over ``DiskCache/lookupSQL``) inside the read
        /// transaction, beginning it if needed. The statement is reset afterwards.
        func lookup<T>(complete: Bool, _ body: (_ statement: OpaquePointer) throws -> T) throws -> T {
            try lock.withLock {
                guard !isClosed else { throw Closed() }
                let statement = try prepared(complete: complete)
                if keepsReadTransaction, sqlite3_get_autocommit(handle) != 0 {
                    try execute("BEGIN DEFERRED TRANSACTION")
                }
                defer { sqlite3_reset(statement) }
                return try body(statement)
            }
        }

        /// Runs `updates` in a GRDB write transaction, ending the lookups' read transaction first.
        func write<T>(_ updates: (Database) throws -> T) throws -> T {
            try lock.withLock {
                try endReadTransaction()
                return try queue.write(updates)
            }
        }

        /// Runs `value` in a GRDB read transaction.
        func read<T>(_ value: (Database) throws -> T) throws -> T {
            try lock.withLock {
                try endReadTransaction()
                return try queue.read(value)
            }
        }

        /// Ends the read transaction and frees the memory SQLite can free (its page cache).
        func releaseMemory() {
            lock.withLock {
                guard !isClosed else { return }
                try? endReadTransaction()
                sqlite3_db_release_memory(handle)
            }
        }

        /// Finalizes the statements, ends the read transaction and closes the connection.
        /// Errors are ignored: the connection is being given up, usually because it is damaged.
        func close() {
            lock.withLock {
                guard !isClosed else { return }
                isClosed = true
                finalizeStatements()
                try? endReadTransaction()
                try? queue.close()
            }
        }

        /// What a lookup throws when the connection was closed after the lookup picked it up (a
        /// rebuild replaced it): a miss, not a failure to report.
        struct Closed: Error {}

        /// Whether the lookups' read transaction is open (for tests).
        var isInReadTransaction: Bool {
            lock.withLock { !isClosed && sqlite3_get_autocommit(handle) == 0 }
        }

        // MARK: - With `lock` held

        private func prepared(complete: Bool) throws -> OpaquePointer {
            if let statement = complete ? completeLookup : quickLookup { return statement }
            let sql = complete ? DiskCache.completeLookupSQL : DiskCache.lookupSQL
            var statement: OpaquePointer?
            let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
            if complete { completeLookup = statement } else { quickLookup = statement }
            return statement
        }

        private func endReadTransaction() throws {
            // Nothing was written in it, so ending it is a commit of nothing.
            if sqlite3_get_autocommit(handle) == 0 { try execute("COMMIT") }
        }

        private func execute(_ sql: String) throws {
            let code = sqlite3_exec(handle, sql, nil, nil, nil)
            guard code == SQLITE_OK else { throw error(code, sql: sql) }
        }

        private func finalizeStatements() {
            sqlite3_finalize(quickLookup)
            sqlite3_finalize(completeLookup)
            quickLookup = nil
            completeLookup = nil
        }

        /// The error SQLite reported for `code`, as GRDB reports its own (so recovery reads
        /// both the same way). Call it from ``lookup(complete:_:)``'s body, with `lock` held.
        func error(_ code: Int32, sql: String) -> DatabaseError {
            DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
    }
}
