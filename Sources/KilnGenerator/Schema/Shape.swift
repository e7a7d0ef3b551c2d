import Foundation
import KilnModel

/// What the samples showed at one place in the document (a key path, or the elements of an
/// array there): the kinds seen and how often, number ranges, a few distinct strings, and the
/// shapes of nested objects and array elements.
///
/// Shapes are built by merging every value seen at the same path across all samples and all
/// array elements, so `list[].author.name` is one shape however many articles there are.
final class Shape {
    /// How many values were seen here, `null` included.
    var seen = 0
    var nulls = 0
    var bools = 0
    var ints = 0
    var doubles = 0
    var strings = 0
    var arrays = 0
    var objects = 0

    var minimum: Double?
    var maximum: Double?
    /// The exact range when every number was an integer (doubles lose digits past 2^53).
    var integerMinimum: Int64?
    var integerMaximum: Int64?
    /// Integers by their digit count (without sign), to tell epoch seconds from milliseconds.
    var integerDigits: Set<Int> = []

    /// Distinct strings in order of first appearance, up to ``distinctLimit``.
    var distinctStrings: [String] = []
    var hasMoreStrings = false
    static let distinctLimit = 64

    /// How many strings each recognizer accepted.
    var isoDates = 0
    /// ISO 8601 strings that `.iso8601` writes back exactly as they came (no fraction, `Z`).
    var isoDatesRoundTripping = 0
    var urls = 0
    var uuids = 0
    /// UUID strings as `UUID` writes them (upper-case).
    var uuidsRoundTripping = 0
    var eightDigitDates = 0

    /// The merged shape of objects seen here.
    var object: ObjectShape?
    /// The merged shape of array elements seen here.
    var element: Shape?

    /// Values that were neither null nor missing.
    var nonNull: Int { seen - nulls }

    func observe(_ value: JSONDocument.Node) {
        observe(value.content)
    }

    func observe(_ value: JSONDocument.Node.Content) {
        seen += 1
        switch value {
        case .scalar(let scalar):
            observe(scalar: scalar)
        case .array(let elements):
            arrays += 1
            let element = self.element ?? Shape()
            self.element = element
            for item in elements { element.observe(item) }
        case .object(let members):
            objects += 1
            let object = self.object ?? ObjectShape()
            self.object = object
            object.observe(members)
        }
    }

    private func observe(scalar: JSONValue) {
        switch scalar {
        case .null:
            nulls += 1
        case .bool:
            bools += 1
        case .int(let number):
            ints += 1
            note(Double(number))
            integerMinimum = min(integerMinimum ?? number, number)
            integerMaximum = max(integerMaximum ?? number, number)
            integerDigits.insert(String(number.magnitude).count)
            if Recognizers.isEightDigitDate(.int(number)) { eightDigitDates += 1 }
        case .double(let number):
            doubles += 1
            note(number)
        case .string(let text):
            strings += 1
            if distinctStrings.count < Self.distinctLimit {
                if !distinctStrings.contains(text) { distinctStrings.append(text) }
            } else if !distinctStrings.contains(text) {
                hasMoreStrings = true
            }
            if Recognizers.isISODate(text) {
                isoDates += 1
                if Recognizers.isRoundTrippingISODate(text) { isoDatesRoundTripping += 1 }
            }
            if Recognizers.isWebURL(text) { urls += 1 }
            if Recognizers.isUUID(text) {
                uuids += 1
                if UUID(uuidString: text)?.uuidString == text { uuidsRoundTripping += 1 }
            }
            if Recognizers.isEightDigitDate(.string(text)) { eightDigitDates += 1 }
        case .array, .object:
            break // a document's containers arrive as `.array` and `.object` content
        }
    }

    private func note(_ number: Double) {
        minimum = min(minimum ?? number, number)
        maximum = max(maximum ?? number, number)
    }

    /// The JSON kinds seen here other than null, in a fixed order.
    var kinds: [Kind] {
        var kinds: [Kind] = []
        if objects > 0 { kinds.append(.object) }
        if arrays > 0 { kinds.append(.array) }
        if strings > 0 { kinds.append(.string) }
        if ints > 0 { kinds.append(.int) }
        if doubles > 0 { kinds.append(.double) }
        if bools > 0 { kinds.append(.bool) }
        return kinds
    }

    /// A JSON kind, with integers told apart from other numbers.
    enum Kind: String {
        case object, array, string, int, double, bool
    }

    func count(of kind: Kind) -> Int {
        switch kind {
        case .object: objects
        case .array: arrays
        case .string: strings
        case .int: ints
        case .double: doubles
        case .bool: bools
        }
    }
}

/// The merged shape of every object seen at one path: its keys in sample order and a ``Shape``
/// per key.
final class ObjectShape {
    /// How many objects were merged.
    var count = 0
    /// Keys in the order the samples wrote them; a key first seen later is placed after the key
    /// that preceded it in that object.
    var keys: [String] = []
    var fields: [String: Shape] = [:]
    /// For an object keyed by ids (`{"1264": {…}, "1265": {…}}`), set by ``ShapeUnifier``: the
    /// merged shape of its values, read as `[String: Value]`.
    var mapValue: Shape?
    /// For a map: whether its keys were ids, and how many distinct keys were seen.
    var mapKeysAreIdentifiers = true
    var mapKeyCount = 0

    func observe(_ members: [JSONDocument.Node.Member]) {
        count += 1
        var seenHere: Set<String> = []
        for (position, member) in members.enumerated() {
            let field: Shape
            if let existing = fields[member.key] {
                field = existing
            } else {
                field = Shape()
                fields[member.key] = field
                // A new key goes before the next key of this object that is already known, so
                // keys added by later samples land where those samples put them.
                let following = members[(position + 1)...].first { fields[$0.key] != nil && $0.key != member.key }
                if let following, let index = keys.firstIndex(of: following.key) {
                    keys.insert(member.key, at: index)
                } else {
                    keys.append(member.key)
                }
            }
            // A key repeated inside one object counts once for presence; its values still merge.
            if seenHere.insert(member.key).inserted {
                field.observe(member.value)
            } else {
                field.observeRepeat(member.value.content)
            }
        }
    }

    /// How many merged objects lacked `key`.
    func missing(_ key: String) -> Int { count - (fields[key]?.seen ?? 0) }
}

extension Shape {
    /// Adds the counts of `other`, a shape seen at a place that names the same thing; nested
    /// objects and elements are merged by ``ShapeUnifier``.
    func absorbCounts(of other: Shape) {
        seen += other.seen
        nulls += other.nulls
        bools += other.bools
        ints += other.ints
        doubles += other.doubles
        strings += other.strings
        arrays += other.arrays
        objects += other.objects
        if let low = other.minimum { minimum = min(minimum ?? low, low) }
        if let high = other.maximum { maximum = max(maximum ?? high, high) }
        if let low = other.integerMinimum { integerMinimum = min(integerMinimum ?? low, low) }
        if let high = other.integerMaximum { integerMaximum = max(integerMaximum ?? high, high) }
        integerDigits.formUnion(other.integerDigits)
        for text in other.distinctStrings where !distinctStrings.contains(text) {
            if distinctStrings.count < Self.distinctLimit {
                distinctStrings.append(text)
            } else {
                hasMoreStrings = true
            }
        }
        hasMoreStrings = hasMoreStrings || other.hasMoreStrings
        isoDates += other.isoDates
        isoDatesRoundTripping += other.isoDatesRoundTripping
        urls += other.urls
        uuids += other.uuids
        uuidsRoundTripping += other.uuidsRoundTripping
        eightDigitDates += other.eightDigitDates
    }

    /// Merges a repeated key's value without counting it as another appearance.
    func observeRepeat(_ value: JSONDocument.Node.Content) {
        observe(value)
        seen -= 1
        if case .scalar(.null) = value { nulls -= 1 }
    }
}
