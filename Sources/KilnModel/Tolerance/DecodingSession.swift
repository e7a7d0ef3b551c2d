import Foundation
import KilnSupport

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

    /// The log and what de-duplicates it, and the type names made so far: one locked access
    /// per repair (a class's stored properties are checked for exclusive access on every access).
    private let state: LockedValue<State>

    private struct State {
        var log: RepairLog
        var typeNames: [ObjectIdentifier: String] = [:]
    }

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
        self.state = LockedValue(State(log: RepairLog(keepsRepairs: keepsRepairs)))
        self.rootPath = rootPath
    }

    /// The repairs recorded so far, in the order they happened.
    public var repairs: [Repair] {
        state.withLock { $0.log.published() }
    }

    /// Whether recording does anything: models skip building repair entries when it does not.
    @inlinable public var isRecording: Bool { keepsRepairs || policy.onRepair != nil }

    /// Records a repair. The same repair at the same path is recorded once, however often a
    /// value is decoded again (a strict attempt retried leniently repeats what it met).
    public func record(_ repair: Repair) {
        let isNew = state.withLock { $0.log.add(repair) }
        if isNew { policy.onRepair?(repair) }
    }

    /// Records a repair from Kiln's reader, made in `tape` by `reader` in its object, with the
    /// tail of its path and its result; its text is made when it is read.
    func record(_ repair: PendingRepair, in tape: JSONTape, tail: PendingRepair.Tail, result: RepairValue, by reader: KilnObjectReader) {
        let isNew = state.withLock { $0.log.add(repair, in: tape, tail: tail, result: result, by: reader) }
        if isNew, let onRepair = policy.onRepair {
            onRepair(Repair(PendingRepairs(repair, in: tape, tail: tail, result: result, by: reader), 0))
        }
    }

    /// Names `tape` as read in place: the repairs made in it copy what their texts show as they
    /// are recorded (``PendingRepairChunks/readInPlace(_:)``), for ``detach(from:)``.
    func readInPlace(_ tape: JSONTape) {
        state.withLock { $0.log.pending.readInPlace(tape) }
    }

    /// Lets go of `tape`'s bytes, read in place, before they go: the repairs made in it keep
    /// the copies of what their texts show instead (``PendingRepairChunks/detach(from:)``).
    func detach(from tape: JSONTape) {
        state.withLock { $0.log.detach(from: tape) }
    }

    /// A type's name as repairs write it (`[String: Int]?`), made once per session.
    func typeName(_ type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        return state.withLock { state in
            if let known = state.typeNames[key] { return known }
            let name = Repair.typeName(type)
            state.typeNames[key] = name
            return name
        }
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

/// A session's repairs, each once.
private struct RepairLog {
    let keepsRepairs: Bool
    /// The reader's repairs, as compact values, in the order they happened.
    var pending = PendingRepairChunks()
    /// The repairs made as text, each with the number of reader's repairs before it: the log is
    /// the two merged in that order.
    var texts: [(position: Int, repair: Repair)] = []
    /// The log made into ``Repair`` values so far (a prefix): how many of `pending` and of
    /// `texts` it holds, and the snapshot of `pending` its reader's repairs refer to.
    var publishedRepairs: [Repair] = []
    var publishedPending = 0
    var publishedTexts = 0
    var snapshot: PendingRepairs?
    /// The repairs made as text already (by the `Decoder` path, transforms, `didDecode`), to
    /// record each once.
    var seen: Set<Repair> = []
    /// The reader's repairs, to record each once: filled only once a repair arrives out of
    /// document order (see `isNew(_:)`).
    var seenPending: Set<PendingRepair.Identity> = []
    var indexesPending = false
    /// The highest object token that recorded a pending repair.
    var frontier = -1
    /// The objects that recorded pending repairs, in increasing token order (the object being
    /// read and the ancestors it returns to), each with where in `pending` its first repair is,
    /// and its document.
    var runs: [(object: Int, start: Int, document: Int32)] = []

    init(keepsRepairs: Bool) {
        self.keepsRepairs = keepsRepairs
    }

    /// Adds a repair made as text, unless it was recorded before; whether it was new.
    mutating func add(_ repair: Repair) -> Bool {
        let isNew = seen.insert(repair).inserted
        if isNew, keepsRepairs {
            texts.append((pending.count, repair))
            runs.removeAll(keepingCapacity: true)
        }
        return isNew
    }

    /// Adds a repair made in `tape` by Kiln's `reader` in its object, unless it was recorded
    /// before; whether it was new.
    @inline(never)
    mutating func add(_ repair: PendingRepair, in tape: JSONTape, tail: PendingRepair.Tail, result: RepairValue, by reader: KilnObjectReader) -> Bool {
        let repair = pending.placing(repair, in: tape)
        guard isNew(repair, tail: tail) else { return false }
        if keepsRepairs { pending.append(repair, tail: tail, result: result, by: reader) }
        return true
    }

    /// Lets go of `tape` (``PendingRepairChunks/detach(from:)``). Repairs published before
    /// keep their snapshot, which read a copy of the excerpt made then
    /// (``PendingRepairChunks/snapshot()``).
    mutating func detach(from tape: JSONTape) {
        pending.detach(from: tape)
        snapshot = nil
    }

    /// Every repair as a ``Repair``, in order. The reader's refer to one snapshot of `pending`,
    /// made when it has grown since the last call (usually once, when the decode is over).
    mutating func published() -> [Repair] {
        guard publishedPending < pending.count || publishedTexts < texts.count else { return publishedRepairs }
        let log: PendingRepairs
        if let snapshot, snapshot.records.count == pending.count {
            log = snapshot
        } else {
            log = PendingRepairs(pending.snapshot())
            snapshot = log
        }
        publishedRepairs.reserveCapacity(pending.count + texts.count)
        // The reader's repairs in runs, up to where the next repair made as text goes.
        var nextPending = publishedPending
        var nextText = publishedTexts
        while nextPending < pending.count || nextText < texts.count {
            let runEnd = nextText < texts.count ? min(texts[nextText].position, pending.count) : pending.count
            if nextPending < runEnd {
                log.records.forEach(in: nextPending..<runEnd) { publishedRepairs.append(Repair(log, $0, kind: $1.kind)) }
                nextPending = runEnd
            }
            if nextText < texts.count, texts[nextText].position <= nextPending {
                publishedRepairs.append(texts[nextText].repair)
                nextText += 1
            }
        }
        (publishedPending, publishedTexts) = (nextPending, nextText)
        return publishedRepairs
    }

    /// Whether a pending repair was not recorded before, and notes it. A model read again (a
    /// list retried leniently) repeats the repairs of objects it already read; in a first read,
    /// objects are met in document order, a nested model's between its parent's properties. So
    /// a repair of an object after every object seen so far is new; one of an object still in
    /// `runs` (the current one or an ancestor it returned to) is compared with that object's
    /// entries since its first; anything else — or a long comparison — switches to a set of
    /// every pending repair.
    @inline(__always)
    private mutating func isNew(_ repair: PendingRepair, tail: PendingRepair.Tail) -> Bool {
        if indexesPending || !keepsRepairs { return seenPending.insert(repair.identity(tail: tail)).inserted }
        let object = repair.object
        if object > frontier {
            frontier = object
            // Objects the decode has left are met again only when a value is read again, which
            // the set below is for: only those around this one are kept.
            while let last = runs.last, last.document == repair.document, !pending.object(last.object, encloses: object, in: Int(repair.document)) {
                runs.removeLast()
            }
            runs.append((object, pending.count, repair.document))
            return true
        }
        if let position = runs.lastIndex(where: { $0.object == object }) {
            // The objects after it were left: dropped one at a time, which costs less than a
            // generic range removal for the one or two there usually are.
            while runs.count > position + 1 { runs.removeLast() }
            let start = runs[position].start
            if pending.count - start <= Self.longestComparison {
                for index in start..<pending.count where pending[index].object == object {
                    if pending.holds(repair, tail: tail, at: index) { return false }
                }
                return true
            }
        }
        indexesPending = true
        runs = []
        seenPending.reserveCapacity(2 * pending.count + 256)
        for index in 0..<pending.count { seenPending.insert(pending.identity(of: index)) }
        return seenPending.insert(repair.identity(tail: tail)).inserted
    }

    /// How many entries `isNew(_:)` compares before it turns to a set.
    private static let longestComparison = 256
}
