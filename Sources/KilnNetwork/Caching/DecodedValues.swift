import Foundation
import KilnModel
import KilnSupport

/// The values a client decoded from cached bytes lately, kept so that the next hit on the same
/// bytes skips the decode.
///
/// An entry is used only when the bytes the cache returns are equal to the bytes it was decoded
/// from (compared in full, so a changed entry is always decoded again), for the same request and
/// the same type. The client that made it owns it: setting a new decoder starts a new one, so a
/// value is never served under another decoder's rules. Bounded by entry count, least recently
/// used first out.
final class DecodedValues: @unchecked Sendable {
    struct Key: Hashable {
        var request: CacheableRequest
        var type: ObjectIdentifier
    }

    private struct Entry {
        var bytes: Data
        var value: any Sendable
        var repairs: [Repair]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Counts uses, for least-recently-used order.
        var clock: UInt64 = 0
    }

    private let state = LockedValue(State())
    let capacity: Int

    init(capacity: Int = 32) {
        self.capacity = capacity
    }

    /// The value decoded earlier from exactly `bytes`, if there is one.
    func value<Value: Sendable>(_ type: Value.Type, for request: CacheableRequest, bytes: Data) -> (value: Value, repairs: [Repair])? {
        let key = Key(request: request, type: ObjectIdentifier(type))
        return state.withLock { state in
            guard var entry = state.entries[key], entry.bytes.count == bytes.count, let value = entry.value as? Value else { return nil }
            guard entry.bytes == bytes else {
                state.entries[key] = nil
                return nil
            }
            state.clock &+= 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return (value, entry.repairs)
        }
    }

    /// Keeps `value`, decoded from `bytes`, for `request`.
    func keep<Value: Sendable>(_ value: Value, repairs: [Repair], for request: CacheableRequest, bytes: Data) {
        guard capacity > 0 else { return }
        let key = Key(request: request, type: ObjectIdentifier(Value.self))
        state.withLock { state in
            state.clock &+= 1
            state.entries[key] = Entry(bytes: bytes, value: value, repairs: repairs, lastUse: state.clock)
            if state.entries.count > capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.entries[oldest] = nil
            }
        }
    }

    /// Forgets what was kept for `request`.
    func forget(_ request: CacheableRequest) {
        state.withLock { state in state.entries = state.entries.filter { $0.key.request != request } }
    }
}
