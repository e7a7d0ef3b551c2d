/// A value that can be read or changed only with its lock held.
///
/// The state a class shares between threads goes in one `LockedValue` (a struct of fields when
/// there are several), so no field can be read without the lock and every change of several
/// fields is one step:
///
/// ```swift
/// private struct State {
///     var waiting: [CheckedContinuation<Void, Never>] = []
///     var open = true
/// }
/// private let state = LockedValue(State())
///
/// func close() {
///     let waiting = state.withLock { state in
///         state.open = false
///         defer { state.waiting.removeAll() }
///         return state.waiting
///     }
///     waiting.forEach { $0.resume() }   // outside the lock
/// }
/// ```
///
/// In the style of Alamofire's `Protected` and NIO's `NIOLockedValueBox`, over Kiln's ``Lock``.
/// Resume continuations, call callbacks and start work after `withLock` returns, not inside it.
///
/// Public, as ``Lock`` is, though apps never see it (this module is no product): the
/// `@inlinable` ``withLock(_:)`` of a `package` class is not inlined into other modules, which
/// then call the generic method and its closure for every lock taken.
public final class LockedValue<Value> {
    @usableFromInline let lock = Lock()
    /// Only touched with `lock` held, which is what makes each access exclusive: the runtime's
    /// own exclusivity check would repeat that on every access.
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// A box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held and returns what it returns. Inlinable, so
    /// that `body` is inlined into the caller rather than called through a generic closure.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

extension LockedValue: @unchecked Sendable where Value: Sendable {}

extension LockedValue {
    /// A copy of the value, read with the lock held.
    package var current: Value {
        withLock { $0 }
    }

    /// Replaces the value with the lock held.
    package func set(_ newValue: Value) {
        withLock { $0 = newValue }
    }
}
