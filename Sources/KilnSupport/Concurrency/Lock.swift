#if canImport(Darwin)
import os
#else
import Synchronization
#endif

/// A small non-recursive mutex: the one lock every Kiln module uses.
///
/// Prefer ``LockedValue``, which keeps the state it guards out of reach without the lock. `Lock`
/// is for the places that guard something other than one value: a section of code, a file, or
/// fields split between two locks (`DiskCache`'s write and state locks).
///
/// ```swift
/// let lock = Lock()
/// lock.withLock { writeHeader() }
/// ```
///
/// On Apple platforms this wraps `os_unfair_lock`, allocated once on the heap so that its address
/// never moves (it may not be moved once used): `Mutex` from the Synchronization module needs
/// macOS 15, and `NSLock` costs an Objective-C style call per operation. Elsewhere it is a
/// Synchronization `Mutex`, whose uncontended lock and unlock are one atomic instruction each,
/// inlined (a `pthread_mutex_t` costs two calls and some fifty instructions more per lock).
///
/// Public rather than `package`, for the same reason as ``LockedValue``: so that ``withLock(_:)``
/// is inlined into Kiln's other modules.
public final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock_s> = {
        let primitive = UnsafeMutablePointer<os_unfair_lock_s>.allocate(capacity: 1)
        primitive.initialize(to: os_unfair_lock_s())
        return primitive
    }()

    deinit {
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }
    #else
    @usableFromInline let mutex = Mutex<Void>(())
    #endif

    /// An unlocked lock.
    package init() {}

    /// Runs `body` with the lock held and returns what it returns. Inlinable, so that a lock
    /// costs its lock and unlock and nothing else; a lock taken is given back on every path out.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        defer { os_unfair_lock_unlock(primitive) }
        return try body()
        #else
        return try mutex.withLock { _ in try body() }
        #endif
    }
}
