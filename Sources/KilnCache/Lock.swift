#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small non-recursive mutex used to guard shared state.
///
/// `Mutex` from the Synchronization module needs macOS 15, and `NSLock` costs an Objective-C
/// style call per operation; this wraps `os_unfair_lock` on Apple platforms and
/// `pthread_mutex_t` elsewhere, allocated once so its address never moves.
final class Lock: @unchecked Sendable {
    #if canImport(os)
    private let pointer: UnsafeMutablePointer<os_unfair_lock_s>
    #else
    private let pointer: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        #if canImport(os)
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: os_unfair_lock_s())
        #else
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(pointer)
        #endif
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    @inline(__always)
    func lock() {
        #if canImport(os)
        os_unfair_lock_lock(pointer)
        #else
        pthread_mutex_lock(pointer)
        #endif
    }

    @inline(__always)
    func unlock() {
        #if canImport(os)
        os_unfair_lock_unlock(pointer)
        #else
        pthread_mutex_unlock(pointer)
        #endif
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
