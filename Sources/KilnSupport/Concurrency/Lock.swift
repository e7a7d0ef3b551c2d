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
/// `Mutex` from the Synchronization module needs macOS 15, and `NSLock` costs an Objective-C style
/// call per operation; this wraps `os_unfair_lock` on Apple platforms and `pthread_mutex_t`
/// elsewhere, allocated once on the heap so its address never moves (neither primitive may be
/// moved once used).
///
/// Public rather than `package`, for the same reason as ``LockedValue``: so that ``withLock(_:)``
/// is inlined into Kiln's other modules.
public final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock_s>
    #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    /// An unlocked lock.
    package init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock_s())
        #else
        primitive.initialize(to: pthread_mutex_t())
        pthread_mutex_init(primitive, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    // Only through `withLock`: a lock taken is always given back, on every path out. Inlinable
    // (with the two calls below), so that a lock costs its two calls and nothing else.
    @inlinable @inline(__always)
    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        pthread_mutex_lock(primitive)
        #endif
    }

    @inlinable @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        pthread_mutex_unlock(primitive)
        #endif
    }

    /// Runs `body` with the lock held and returns what it returns.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
