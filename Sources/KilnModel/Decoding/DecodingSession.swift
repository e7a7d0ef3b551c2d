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
    private var log: [Repair] = []
    private var seen: Set<Repair> = []

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
        if isNew, keepsRepairs { log.append(repair) }
        lock.unlock()
        if isNew { policy.onRepair?(repair) }
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
