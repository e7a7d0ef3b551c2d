import Foundation

/// One decode's policy and repair log, carried to every model through the decoder's `userInfo`.
///
/// Kiln's entry points (`decodeWithRepairs`) make one for you. To get Kiln's policy and repair
/// log through any other `Decoder` (`PropertyListDecoder`, a decoder of your own), put one in
/// its `userInfo`:
///
/// ```swift
/// let session = DecodingSession(policy: policy)
/// let decoder = PropertyListDecoder()
/// decoder.userInfo[.kilnDecodingSession] = session
/// let article = try decoder.decode(Article.self, from: plist)
/// print(session.repairs)
/// ```
///
/// Without a session, `@DataModel` types still decode tolerantly with the default policy; they
/// just keep no log. A session is safe to share between tasks, but one per decode keeps logs apart.
public final class DecodingSession: @unchecked Sendable {
    /// The policy models follow.
    public let policy: DecodingPolicy
    /// Whether repairs are kept (`repairs`) as well as reported to the policy's `onRepair`.
    public let keepsRepairs: Bool

    private let lock = NSLock()
    /// The distinct repairs, in the order they happened.
    private var log: [Repair] = []
    /// The repairs made as text already (by the `Decoder` path, transforms, `didDecode`), to
    /// record each once.
    private var seen: Set<Repair> = []
    /// The repairs Kiln's reader recorded as compact values, to record each once without making
    /// their text: filled only once a repair arrives out of document order (see `isNew(_:)`).
    private var seenPending: Set<PendingRepair.Identity> = []
    private var indexesPending = false
    /// The highest object token that recorded a pending repair, and where in `log` the repairs
    /// of that object start when they are the last entries.
    private var frontier = -1
    private var frontierRun: Int? = nil
    private var typeNames: [ObjectIdentifier: String] = [:]

    /// Makes a session.
    /// - Parameters:
    ///   - policy: the policy for this decode.
    ///   - keepsRepairs: whether to keep the log for ``repairs``; the policy's `onRepair` is
    ///     called either way.
    public convenience init(policy: DecodingPolicy = DecodingPolicy(), keepsRepairs: Bool = true) {
        self.init(policy: policy, keepsRepairs: keepsRepairs, rootPath: nil)
    }

    init(policy: DecodingPolicy, keepsRepairs: Bool, rootPath: JSONPath?) {
        self.policy = policy
        self.unknownEnumIsNil = policy.unknownEnumValueInOptionalIsNil
        self.keepsRepairs = keepsRepairs
        self.rootPath = rootPath
    }

    /// The repairs recorded so far, in the order they happened.
    public var repairs: [Repair] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    /// Whether recording does anything: models skip building repair entries when it does not.
    @inlinable public var isRecording: Bool { keepsRepairs || policy.onRepair != nil }

    /// Records a repair. The same repair at the same path is recorded once, however often a
    /// value is decoded again (a strict attempt retried leniently repeats what it met).
    public func record(_ repair: Repair) {
        lock.lock()
        let isNew = seen.insert(repair).inserted
        if isNew, keepsRepairs {
            log.append(repair)
            frontierRun = nil
        }
        lock.unlock()
        if isNew { policy.onRepair?(repair) }
    }

    /// Records a repair from Kiln's reader; its text is made when it is read.
    func record(_ pending: PendingRepair) {
        lock.lock()
        let isNew = isNew(pending)
        let repair = Repair(pending)
        if isNew, keepsRepairs { log.append(repair) }
        lock.unlock()
        if isNew { policy.onRepair?(repair) }
    }

    /// Whether a pending repair was not recorded before, and notes it. A model read again (a
    /// list retried leniently) repeats the repairs of objects it already read; in a first read,
    /// repairs arrive in document order. So a repair of an object after every object seen so
    /// far is new, one of the last object is compared with that object's few repairs, and
    /// anything else switches to a set of every pending repair. Called with the lock held.
    private func isNew(_ pending: PendingRepair) -> Bool {
        if indexesPending || !keepsRepairs { return seenPending.insert(pending.identity).inserted }
        if pending.object > frontier {
            frontier = pending.object
            frontierRun = log.count
            return true
        }
        if pending.object == frontier, let run = frontierRun {
            let identity = pending.identity
            return !log[run...].contains { $0.pendingRepair?.identity == identity }
        }
        indexesPending = true
        seenPending.reserveCapacity(2 * log.count + 64)
        for entry in log {
            if let earlier = entry.pendingRepair { seenPending.insert(earlier.identity) }
        }
        return seenPending.insert(pending.identity).inserted
    }

    /// A type's name as repairs write it (`[String: Int]?`), made once per session.
    func typeName(_ type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        lock.lock()
        defer { lock.unlock() }
        if let known = typeNames[key] { return known }
        let name = Repair.typeName(type)
        typeNames[key] = name
        return name
    }

    /// The session in a decoder's `userInfo`, if any.
    @inlinable public static func current(in decoder: any Decoder) -> DecodingSession? {
        decoder.userInfo[.kilnDecodingSession] as? DecodingSession
    }

    /// The policy's ``DecodingPolicy/unknownEnumValueInOptionalIsNil``, kept here so that every
    /// optional property's read tests a flag instead of copying the policy.
    @usableFromInline let unknownEnumIsNil: Bool

    /// The root key path a Kiln entry point asked for; read by the root wrapper only.
    let rootPath: JSONPath?
}

extension CodingUserInfoKey {
    /// Where Kiln looks for the ``DecodingSession`` of a decode.
    public static let kilnDecodingSession: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "kiln.decodingSession") else {
            preconditionFailure("a non-empty raw value always makes a key")
        }
        return key
    }()
}
