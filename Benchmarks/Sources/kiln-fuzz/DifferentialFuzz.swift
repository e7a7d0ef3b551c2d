import Foundation
@_spi(Testing) import KilnModel

/// The differential mode (`KILN_FUZZ_MODE=differential`): the same bytes decoded by
/// `KilnDecoder` and by Foundation's `JSONDecoder` into plain `Decodable` shapes must give equal
/// values, or the same error kind at the same coding path. A difference traps, so that libFuzzer
/// keeps the input, unless ``DifferentialCase/documentedDifference(_:_:_:)`` finds it in the
/// table of deliberate differences (TolerantDecoding.md, "Where KilnDecoder differs from
/// JSONDecoder").
enum DifferentialCase {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        // A keyed shape at the root, its fields at every width.
        compare(Record.self, data, holdsDictionaries: true)
        compare(Plain.self, data)
        compare(Strict<[Plain]>.self, data)
        compare(Wide.self, data)
        // Collections of numbers at the root are read as JSONDecoder reads them.
        compare([Int8].self, data)
        compare([Int16].self, data)
        compare([Int32].self, data)
        compare([Int64].self, data)
        compare([Int].self, data)
        compare([UInt8].self, data)
        compare([UInt16].self, data)
        compare([UInt32].self, data)
        compare([UInt64].self, data)
        compare([UInt].self, data)
        compare([Double].self, data)
        compare([Float].self, data)
        compare([Decimal].self, data)
        compare([Int?].self, data)
        compare([[Float]].self, data)
        compare([String: Int].self, data, holdsDictionaries: true)
        compare([String: [Double]].self, data, holdsDictionaries: true)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            compare([Int128].self, data)
            compare([UInt128].self, data)
        }
        // Other collections at the root are lossy by design (the table's first row): read
        // through a single-value container, they are strict, as anywhere below the root.
        compare(Strict<[Record]>.self, data, holdsDictionaries: true)
        compare(Strict<[String: Record]>.self, data, holdsDictionaries: true)
        compare(Strict<[String]>.self, data)
        compare(Strict<[String: String]>.self, data, holdsDictionaries: true)
        compare(Strict<[Bool?]>.self, data)
        // Scalars at the root.
        compare(Int.self, data)
        compare(UInt64.self, data)
        compare(Double.self, data)
        compare(Float.self, data)
        compare(Decimal.self, data)
        compare(String.self, data)
        compare(Bool.self, data)
        compare(Int8?.self, data)
        // A `@DataModel` through Kiln's fast path and through its `Decoder` path: the same
        // values and the same repair log (objects of more than sixteen members take the fast
        // path's hashed member table).
        compareFastPath(data)
    }

    /// Traps when `Letters` decodes differently through the two paths of `KilnDecoder`. A key
    /// written twice may be read from either occurrence (the table's row): with each object's
    /// repeats dropped, the two must agree.
    static func compareFastPath(_ data: Data) {
        func outcomes(_ data: Data) -> (fast: String, generic: String) {
            func outcome(_ decoder: KilnDecoder) -> String {
                do {
                    let (value, repairs) = try decoder.decodeWithRepairs(Letters.self, from: data)
                    // `describe`: a dictionary's own description orders it by where its storage lies.
                    return "\(describe(value)) \(repairs.map(\.description))"
                } catch {
                    return "error \(error)"
                }
            }
            return (outcome(kilnDecoder), outcome(KilnDecoder.decoderProtocolPath))
        }
        let both = outcomes(data)
        if both.fast == both.generic { return }
        if let firstOnly = firstKeysOnly(data) {
            let again = outcomes(firstOnly)
            if again.fast == again.generic { return }
        }
        let text = String(decoding: data.prefix(200), as: UTF8.self)
        let report = "differential: Letters from \(text.debugDescription)\n  fast path: \(both.fast)\n  Decoder path: \(both.generic)\n"
        FileHandle.standardError.write(Data(report.utf8))
        preconditionFailure(report)
    }

    /// Single-letter members (easy for the fuzzer to find), more than a member table's threshold,
    /// of the kinds the fast path reads itself, with nested models, lists and dictionaries of them.
    @DataModel
    struct Letters {
        var a = 0
        var b = ""
        var c = 0.0
        var d = false
        var e: Int?
        var f: [Int] = []
        var g: [String] = []
        var h: Int64 = 0
        var i: String?
        var j = 0
        var k = ""
        var l: Double?
        var m = 0
        var n = ""
        var o = false
        var p: [Double] = []
        var q = Pair()
        var r: [Pair] = []
        var s: Pair?
        var t: [String: Int] = [:]
        var u: [String: Pair] = [:]
    }

    @DataModel
    struct Pair {
        var a = 0
        var b = ""
    }

    // MARK: Shapes

    /// Every plain scalar under a one-letter key (short keys are easy for the fuzzer to find),
    /// nested keyed and unkeyed containers, optionals and dictionaries.
    struct Record: Decodable {
        var a: Int?
        var b: Int8?
        var c: Int16?
        var d: Int32?
        var e: Int64?
        var f: UInt?
        var g: UInt8?
        var h: UInt16?
        var i: UInt32?
        var j: UInt64?
        var k: Double?
        var l: Float?
        var m: Decimal?
        var n: String?
        var o: Bool?
        var p: [Record]?
        var q: [String: Record]?
        var r: [Int?]?
        var s: [[Double]]?
        var t: [String: Int]?
        var u: Inner?
    }

    /// `Record` without dictionaries: its errors are compared strictly (members are read in
    /// declaration order through both decoders).
    struct Plain: Decodable {
        var a: Int?
        var b: Int8?
        var c: Int16?
        var d: Int32?
        var e: Int64?
        var f: UInt?
        var g: UInt8?
        var h: UInt16?
        var i: UInt32?
        var j: UInt64?
        var k: Double?
        var l: Float?
        var m: Decimal?
        var n: String?
        var o: Bool?
        var p: [Plain]?
        var r: [Int?]?
        var s: [[Double]]?
        var u: Inner?
    }

    /// Required members: a missing key, `null` and a wrong kind are errors here.
    struct Inner: Decodable {
        var v: Int
        var w: String
        var x: [Float]
    }

    /// 128-bit integers, where the platform has them.
    struct Wide: Decodable {
        var y: String?
        var z: [String]?
        var value = ""

        enum CodingKeys: String, CodingKey { case y, z, signed = "i", unsigned = "u" }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            y = try container.decodeIfPresent(String.self, forKey: .y)
            z = try container.decodeIfPresent([String].self, forKey: .z)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                let signed = try container.decodeIfPresent(Int128.self, forKey: .signed)
                let unsigned = try container.decodeIfPresent(UInt128.self, forKey: .unsigned)
                value = "\(signed.map { "\($0)" } ?? "nil") \(unsigned.map { "\($0)" } ?? "nil")"
            }
        }
    }

    /// `T` read through the root's single-value container.
    struct Strict<T: Decodable>: Decodable {
        var value: T
        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(T.self)
        }
    }

    // MARK: Comparing

    /// What a decode came to, in terms both decoders share.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        /// Kiln's `invalidJSON`: the bytes (or a number or string in them) are not JSON.
        /// `JSONDecoder` says `dataCorrupted` at the root, for these and for a number that does
        /// not fit alike.
        case invalidJSON(String)
        case error(Kind, path: String, message: String)

        enum Kind: String {
            case typeMismatch, valueNotFound, keyNotFound, dataCorrupted
        }

        var description: String {
            switch self {
            case .value(let text): "value \(text)"
            case .invalidJSON(let message): "invalid JSON (\(message))"
            case .error(let kind, let path, let message): "\(kind.rawValue) at '\(path)' (\(message))"
            }
        }

        /// Equal values, or errors of one kind at one path (messages differ by design).
        func matches(_ other: Outcome) -> Bool {
            switch (self, other) {
            case (.value(let a), .value(let b)): a == b
            case (.invalidJSON, .invalidJSON): true
            case (.invalidJSON, .error(.dataCorrupted, "", _)), (.error(.dataCorrupted, "", _), .invalidJSON): true
            case (.error(let a, let pathA, _), .error(let b, let pathB, _)): a == b && pathA == pathB
            default: false
            }
        }
    }

    static let foundationDecoder = JSONDecoder()
    static let kilnDecoder = KilnDecoder()

    /// Decodes `data` as `T` through both decoders; traps on a difference the table does not
    /// explain. `holdsDictionaries`: `T` has a `[String: V]` somewhere.
    static func compare<T: Decodable>(_ type: T.Type, _ data: Data, holdsDictionaries: Bool = false) {
        let foundation = foundationOutcome(T.self, data)
        let kiln = kilnOutcome(T.self, data)
        if explained(T.self, foundation, kiln, data, holdsDictionaries: holdsDictionaries) { return }
        // Row "A key written twice in one object": JSONDecoder reads the first occurrence, Kiln
        // may read a later one. With each object's repeated keys dropped, Kiln must agree (or
        // differ only as another row says).
        if let firstOnly = firstKeysOnly(data),
            explained(T.self, foundation, kilnOutcome(T.self, firstOnly), data, holdsDictionaries: holdsDictionaries)
        {
            return
        }
        let text = String(decoding: data.prefix(200), as: UTF8.self)
        let report = "differential: \(T.self) from \(text.debugDescription)\n  JSONDecoder: \(foundation)\n  KilnDecoder: \(kiln)\n"
        FileHandle.standardError.write(Data(report.utf8))
        preconditionFailure(report)
    }

    /// Whether the two outcomes agree, or differ as a row of the table says.
    static func explained<T: Decodable>(_ type: T.Type, _ foundation: Outcome, _ kiln: Outcome, _ data: Data, holdsDictionaries: Bool) -> Bool {
        if foundation.matches(kiln) || documentedDifference(foundation, kiln, data) != nil { return true }
        // Row "Which member's error a dictionary reports when several fail": JSONDecoder reads a
        // `[String: V]` in its hash order (a new order in each process), Kiln in the document's;
        // JSONDecoder reports a number that does not fit at the root, so the member is unknown.
        // Both fail then, maybe at different members (or JSONDecoder at the root, for a number).
        // `Plain` has the same members without dictionaries, compared strictly.
        if holdsDictionaries, case .error = foundation, case .error = kiln { return true }
        // Row "Zero written with an exponent": JSONDecoder refuses `0e1` or `0.00e99` as Double
        // or Float. With the exponent's digits zeroed (the same value), it must agree with Kiln.
        if let patched = zeroExponentsRewritten(data), foundationOutcome(T.self, patched).matches(kiln) { return true }
        return false
    }

    static func foundationOutcome<T: Decodable>(_ type: T.Type, _ data: Data) -> Outcome {
        do {
            return .value(describe(try foundationDecoder.decode(T.self, from: data)))
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context):
                // Row "What a failure throws": ModelDecodingError has one case for a wrong kind
                // and for null, and says which it found; JSONDecoder calls a null at the root a
                // type mismatch ("but found null instead").
                let kind: Outcome.Kind = context.debugDescription.contains("found null") ? .valueNotFound : .typeMismatch
                return .error(kind, path: format(context.codingPath), message: context.debugDescription)
            case .valueNotFound(_, let context): return .error(.valueNotFound, path: format(context.codingPath), message: context.debugDescription)
            case .keyNotFound(let key, let context): return .error(.keyNotFound, path: format(context.codingPath + [key]), message: context.debugDescription)
            case .dataCorrupted(let context):
                return .error(.dataCorrupted, path: format(context.codingPath), message: context.debugDescription)
            @unknown default: return .error(.dataCorrupted, path: "", message: "\(error)")
            }
        } catch {
            return .error(.dataCorrupted, path: "", message: "\(error)")
        }
    }

    static func kilnOutcome<T: Decodable>(_ type: T.Type, _ data: Data) -> Outcome {
        do {
            return .value(describe(try kilnDecoder.decode(T.self, from: data)))
        } catch {
            switch error {
            case .invalidJSON(let message, let offset, _, _): return .invalidJSON("\(message) at byte \(offset)")
            case .typeMismatch(let path, _, let found): return .error(found == "null" ? .valueNotFound : .typeMismatch, path: path, message: found)
            case .pathNotFound(let path): return .error(.keyNotFound, path: path, message: "")
            case .failed(let path, let message): return .error(.dataCorrupted, path: path, message: message)
            }
        }
    }

    /// The row of TolerantDecoding.md's "Where KilnDecoder differs from JSONDecoder" table that
    /// explains the difference, or `nil`: then it is a finding. Nothing else is excused.
    static func documentedDifference(_ foundation: Outcome, _ kiln: Outcome, _ data: Data) -> String? {
        switch (foundation, kiln) {
        case (.error(.dataCorrupted, "", _), .error(.dataCorrupted, _, let message)) where message.hasPrefix("Number ") && message.contains("does not fit in"):
            // Row "A number that does not fit its type": JSONDecoder reports it at the root as
            // not valid JSON, Kiln at the value's own path.
            return "a number that does not fit its type"
        case (_, .invalidJSON(let message)):
            // Row "JSON beyond RFC 8259 (a trailing comma)": JSONDecoder accepts `[1,]`.
            if let offset = Int(message.split(separator: " ").last ?? ""), isTrailingComma(data, at: offset) {
                return "JSON beyond RFC 8259"
            }
            // Row "A malformed string or number in a member no property reads" (a number beyond
            // Double's range among them, which Foundation's own parser takes as infinity).
            if message.hasPrefix("number out of the range of Double") { return "a malformed string or number in a member no property reads" }
            // The same row: JSONDecoder
            // checks a value's text only when it reads it, so bytes that are not JSON pass when
            // that member is skipped. Foundation's own parser, reading every value, refuses them.
            if (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) == nil {
                return "a malformed string or number in a member no property reads"
            }
            return nil
        default:
            return nil
        }
    }

    /// `data` with the exponent digits of each zero written with one (`0e1`, `-0.00E+99`) set
    /// to `0`, or `nil` if it has none.
    /// The UTF-8 document `data` with each object's repeated keys (equal as Swift strings) and
    /// their values dropped, the first occurrence kept; `nil` when no key repeats or the bytes are
    /// not plain UTF-8 JSON.
    static func firstKeysOnly(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        var i = 0
        var dropped = false
        func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        }
        func string() -> ArraySlice<UInt8>? {
            let start = i
            i += 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
            guard i < bytes.count else { return nil }
            i += 1
            return bytes[start..<i]
        }
        func value() -> [UInt8]? {
            skipSpace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[i] == UInt8(ascii: "{")
                var out: [UInt8] = [bytes[i]]
                var seen: Set<String> = []
                i += 1
                skipSpace()
                while i < bytes.count, bytes[i] != (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    var member: [UInt8] = []
                    var keep = true
                    if isObject {
                        skipSpace()
                        guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let key = string(),
                            let name = try? JSONDecoder().decode(String.self, from: Data(key))
                        else { return nil }
                        keep = seen.insert(name).inserted
                        skipSpace()
                        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                        i += 1
                        member = Array(key) + [UInt8(ascii: ":")]
                    }
                    guard let element = value() else { return nil }
                    if keep {
                        if out.count > 1 { out.append(UInt8(ascii: ",")) }
                        out += member + element
                    } else {
                        dropped = true
                    }
                    skipSpace()
                    if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1 }
                }
                guard i < bytes.count else { return nil }
                out.append(bytes[i])
                i += 1
                return out
            case UInt8(ascii: "\""):
                return string().map(Array.init)
            default:
                let start = i
                while i < bytes.count, !",]} \t\n\r".utf8.contains(bytes[i]) { i += 1 }
                return Array(bytes[start..<i])
            }
        }
        guard let document = value() else { return nil }
        return dropped ? Data(document) : nil
    }

    static func zeroExponentsRewritten(_ data: Data) -> Data? {
        var bytes = [UInt8](data)
        var changed = false
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        var i = 0
        while i < bytes.count {
            // A number starts at a digit that no digit, dot, sign or letter precedes.
            guard digits.contains(bytes[i]),
                i == 0 || !(digits.contains(bytes[i - 1]) || bytes[i - 1] == UInt8(ascii: ".") || bytes[i - 1] | 0x20 == UInt8(ascii: "e"))
            else {
                i += 1
                continue
            }
            var j = i
            var allZero = true
            while j < bytes.count, digits.contains(bytes[j]) || bytes[j] == UInt8(ascii: ".") {
                if bytes[j] != UInt8(ascii: "0") && bytes[j] != UInt8(ascii: ".") { allZero = false }
                j += 1
            }
            if allZero, j < bytes.count, bytes[j] | 0x20 == UInt8(ascii: "e") {
                j += 1
                if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
                while j < bytes.count, digits.contains(bytes[j]) {
                    if bytes[j] != UInt8(ascii: "0") { changed = true }
                    bytes[j] = UInt8(ascii: "0")
                    j += 1
                }
            }
            i = max(j, i + 1)
        }
        return changed ? Data(bytes) : nil
    }

    /// Whether the byte at `offset` closes an array or object right after a comma.
    static func isTrailingComma(_ data: Data, at offset: Int) -> Bool {
        let bytes = [UInt8](data)
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "]") || bytes[offset] == UInt8(ascii: "}") else { return false }
        var i = offset - 1
        while i >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i -= 1 }
        return i >= 0 && bytes[i] == UInt8(ascii: ",")
    }

    static func format(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue.isEmpty || key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                out += "[\(index)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }

    /// A value's text, the same for equal values whatever their history: floating point by its
    /// bits (`-0` is not `0`), dictionaries and sets in sorted order.
    static func describe(_ value: Any) -> String {
        switch value {
        case let double as Double: return "D\(String(double.bitPattern, radix: 16))"
        case let float as Float: return "F\(String(float.bitPattern, radix: 16))"
        case let decimal as Decimal: return "M\(decimal)"
        case let string as String: return string.debugDescription
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return "nil" }
            return describe(wrapped.value)
        case .dictionary, .set:
            return "{" + mirror.children.map { describe($0.value) }.sorted().joined(separator: ",") + "}"
        case .tuple:
            return "(" + mirror.children.map { describe($0.value) }.joined(separator: ":") + ")"
        case .collection, .struct, .class, .enum:
            let inner = mirror.children.map { ($0.label.map { $0 + "=" } ?? "") + describe($0.value) }
            return "[" + inner.joined(separator: ",") + "]"
        default:
            return "\(value)"
        }
    }
}
