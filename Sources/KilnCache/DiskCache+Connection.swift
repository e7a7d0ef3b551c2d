import Foundation
import GRDB
import GRDBSQLite

extension DiskCache {
    /// The cache's one SQLite connection (a GRDB `DatabaseQueue`), and what lookups keep on it
    /// between calls.
    ///
    /// A lookup is one `SELECT` by row id, and in `CacheBench` the work around it cost more
    /// than the search itself. So lookups keep two things that ordinary GRDB use does not:
    ///
    /// - their statements, prepared once (the statement cache hashes the SQL text and checks
    ///   the queue on every use);
    /// - a read transaction, begun by the first lookup and left open until the next write.
    ///   Each statement run in autocommit mode otherwise begins and ends a transaction of its
    ///   own, which cost about a tenth of a lookup. Keeping it open is safe here because this
    ///   is the only connection to the file (exclusive locking mode, see
    ///   ``DiskCache/makeDatabase()``): every write goes through ``write(_:)`` on this same
    ///   connection, which ends the read transaction first, so a lookup never sees an old
    ///   snapshot and nothing waits on it.
    ///
    /// The GRDB configuration allows a transaction to stay open between accesses
    /// (`allowsUnsafeTransactions`) for that reason; ``write(_:)`` is the only way to write.
    final class Connection: @unchecked Sendable {
        // @unchecked: the statements are only touched inside `queue`'s closures, which run one
        // at a time.

        let queue: DatabaseQueue
        private var quickLookup: Statement?
        private var completeLookup: Statement?
        /// Whether a lookup began the read transaction and no write ended it since. A hint: if
        /// SQLite ended it on its own (after an error), a lookup runs in autocommit mode until
        /// the next write, which is only slower.
        private var readTransactionBegun = false

        init(_ queue: DatabaseQueue) {
            self.queue = queue
        }

        deinit {
            // Finalized before the queue closes its connection.
            quickLookup = nil
            completeLookup = nil
        }

        /// Runs `body` with the prepared lookup statement (`complete` picks
        /// ``DiskCache/completeLookupSQL`` over ``DiskCache/lookupSQL``) inside the read
        /// transaction, beginning it if needed. The statement is reset afterwards.
        func lookup<T>(complete: Bool, _ body: (Database, OpaquePointer) throws -> T) throws -> T {
            // The result leaves through a local rather than as the closure's value: GRDB's and
            // Dispatch's generic code is not specialized for `T`, and moving a `T` through it
            // costs a metadata lookup and witness-table copies on every call. `Void` costs none.
            var result: T?
            try queue.inDatabase { db in
                let statement = try statement(complete: complete, in: db)
                if !readTransactionBegun {
                    if sqlite3_get_autocommit(db.sqliteConnection) != 0 {
                        try db.execute(sql: "BEGIN DEFERRED TRANSACTION")
                    }
                    readTransactionBegun = true
                }
                let handle = statement.sqliteStatement
                defer { sqlite3_reset(handle) }
                result = try body(db, handle)
            }
            guard let result else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the lookup ended without a result")
            }
            return result
        }

        private func statement(complete: Bool, in db: Database) throws -> Statement {
            if complete {
                if let completeLookup { return completeLookup }
                let statement = try db.makeStatement(sql: DiskCache.completeLookupSQL)
                completeLookup = statement
                return statement
            }
            if let quickLookup { return quickLookup }
            let statement = try db.makeStatement(sql: DiskCache.lookupSQL)
            quickLookup = statement
            return statement
        }

        /// Runs `updates` in a write transaction, ending the lookups' read transaction first.
        func write<T>(_ updates: (Database) throws -> T) throws -> T {
            try queue.writeWithoutTransaction { db in
                try endReadTransaction(db)
                var result: T?
                try db.inTransaction {
                    result = try updates(db)
                    return .commit
                }
                guard let result else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the write transaction ended without a result")
                }
                return result
            }
        }

        /// Finalizes the statements, ends the read transaction and closes the connection.
        /// Errors are ignored: the connection is being given up, usually because it is damaged.
        func close() {
            try? queue.inDatabase { db in
                quickLookup = nil
                completeLookup = nil
                try endReadTransaction(db)
            }
            try? queue.close()
        }

        private func endReadTransaction(_ db: Database) throws {
            readTransactionBegun = false
            // Nothing was written in it, so ending it is a commit of nothing.
            if sqlite3_get_autocommit(db.sqliteConnection) == 0 { try db.commit() }
        }
    }
}
