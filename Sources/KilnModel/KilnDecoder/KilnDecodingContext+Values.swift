import Foundation

extension KilnDecodingContext {
    /// The coding path of `parent` followed by `step`, built only for errors and repairs.
    @usableFromInline
    func path(_ parent: KilnPathNode?, _ step: KilnPathNode.Step?) -> [any CodingKey] {
        guard let step else { return KilnPathNode.codingPath(parent, in: tape) }
        return KilnPathNode.codingPath(KilnPathNode(parent: parent, step: step), in: tape)
    }

    @inlinable @inline(__always)
    func decodeString(at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> String {
        guard let value = string(at: index) else { throw mismatch(String.self, at: index, path: path(parent, step)) }
        return value
    }

    @inlinable @inline(__always)
    func decodeBool(at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> Bool {
        guard let value = bool(at: index) else { throw mismatch(Bool.self, at: index, path: path(parent, step)) }
        return value
    }

    @inlinable @inline(__always)
    func decodeDouble(at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> Double {
        guard let value = double(at: index) ?? nonConformingFloat(at: index) else {
            throw numberError(Double.self, at: index, path: path(parent, step))
        }
        return value
    }

    @usableFromInline
    func decodeFloat(at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> Float {
        switch float(at: index) {
        case .none:
            if let special = nonConformingFloat(at: index) { return Float(special) }
            throw mismatch(Float.self, at: index, path: path(parent, step))
        case .some(.none): throw outOfRange(Float.self, at: index, path: path(parent, step))
        case .some(.some(let value)): return value
        }
    }

    @inlinable @inline(__always)
    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> I {
        switch integer(I.self, at: index) {
        case .none: throw mismatch(I.self, at: index, path: path(parent, step))
        case .some(.none): throw outOfRange(I.self, at: index, path: path(parent, step))
        case .some(.some(let value)): return value
        }
    }

    /// Decodes any `Decodable` at `index`: primitives and the types Foundation's `JSONDecoder`
    /// treats specially (`URL`, `Data` as Base64, `Decimal` from the number's digits, `JSONValue`)
    /// are read straight from the tape, and so is a valid `UUID` string; everything else gets a
    /// decoder for its subtree.
    @inlinable
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> T {
        if T.self == String.self { return unsafeBitCast(try decodeString(at: index, parent, step), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeInteger(Int.self, at: index, parent, step), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeDouble(at: index, parent, step), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(at: index, parent, step), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try decodeInteger(Int64.self, at: index, parent, step), to: T.self) }
        return try decodeOther(T.self, at: index, parent, step)
    }

    /// An array whose elements are all strings: the common list property, read without a decoder.
    @usableFromInline
    func stringArray(at index: Int) -> [String]? {
        if isEmptyArray(at: index) { return [] }
        return array(at: index) { self.string(at: $0) }
    }

    /// Whether the value at `index` is `[]`. Lists of names and ids are often empty, and
    /// reserving room for none still costs a call; the nested lists of numbers of a shape's
    /// coordinates never are, and go straight to ``array(at:_:)``.
    @inlinable @inline(__always)
    func isEmptyArray(at index: Int) -> Bool {
        kind(index) == .array && tape.tokens[index].aux == 0
    }

    /// An array whose every element `element` reads, without a decoder; `nil` when one does
    /// not (the generic path then decodes it, with its errors).
    @inlinable @inline(__always)
    func array<E>(at index: Int, _ element: (Int) -> E?) -> [E]? {
        guard kind(index) == .array else { return nil }
        let token = tape.tokens[index]
        var items: [E] = []
        items.reserveCapacity(Int(token.aux))
        var i = index + 1
        let end = Int(token.payload)
        while i < end {
            guard let item = element(i) else { return nil }
            // Moved in: a copy would retain a nested list and release it again.
            items.append(consume item)
            i = tape.next(after: i)
        }
        return items
    }

    /// The number lists models hold (`[Int]`, `[Double]`, coordinates as `[[Double]]` and
    /// `[[[Double]]]`), read straight from the tape by the scalar rules; `nil` for other types
    /// or when an element does not fit. Inlined so that, once `T` is known, only one branch is left:
    /// the types are tested with `is`, which folds away then, where `==` between an array's
    /// metatypes stays a comparison of their metadata at run time. Elements are read through
    /// closures rather than method references (`self.listNumber`): a reference is a closure
    /// that retains `self`, made anew for each nested list.
    @inlinable @inline(__always)
    func numberArray<T>(_ type: T.Type, at index: Int) -> T? {
        if T.self is [Int].Type {
            if isEmptyArray(at: index) { return unsafeBitCast([Int](), to: T.self) }
            guard let items = array(at: index, { self.integer(Int.self, at: $0) ?? nil }) else { return nil }
            return unsafeBitCast(items, to: T.self)
        }
        if T.self is [Int64].Type {
            if isEmptyArray(at: index) { return unsafeBitCast([Int64](), to: T.self) }
            guard let items = array(at: index, { self.integer(Int64.self, at: $0) ?? nil }) else { return nil }
            return unsafeBitCast(items, to: T.self)
        }
        if T.self is [Double].Type {
            guard let items = array(at: index, { self.listNumber(at: $0) }) else { return nil }
            return unsafeBitCast(items, to: T.self)
        }
        if T.self is [[Double]].Type {
            guard let items = array(at: index, { self.array(at: $0) { self.listNumber(at: $0) } }) else { return nil }
            return unsafeBitCast(items, to: T.self)
        }
        if T.self is [[[Double]]].Type {
            guard let items = array(at: index, { self.array(at: $0) { self.array(at: $0) { self.listNumber(at: $0) } } }) else { return nil }
            return unsafeBitCast(items, to: T.self)
        }
        return nil
    }

    /// A list element read as `Double`, as the scalar rules read it.
    @inlinable @inline(__always)
    func listNumber(at index: Int) -> Double? {
        double(at: index) ?? nonConformingFloat(at: index)
    }

    /// ``decodeValue(_:at:_:_:)`` past its common types. Nothing here holds a `T?`: in this
    /// generic code, which runs unspecialized, one would fetch the metadata of `Optional<T>` on
    /// every call (some 270 instructions); the branches that need one are apart.
    @usableFromInline
    func decodeOther<T: Decodable>(_ type: T.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> T {
        if T.self == JSONValue.self { return unsafeBitCast(index >= 0 ? tape.decodedValue(at: index) : JSONValue.null, to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try decodeFloat(at: index, parent, step), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try decodeInteger(Int32.self, at: index, parent, step), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try decodeInteger(UInt64.self, at: index, parent, step), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try decodeInteger(UInt.self, at: index, parent, step), to: T.self) }
        if T.self == URL.self {
            let text = try decodeString(at: index, parent, step)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(parent, step), debugDescription: "Invalid URL string."))
            }
            return unsafeBitCast(url, to: T.self)
        }
        if T.self == UUID.self, index >= 0, let uuid = Self.uuid(tape.tokens[index], in: tape.base) {
            return unsafeBitCast(uuid, to: T.self)
        }
        if T.self == Date.self, let date = try decodeDate(at: index, parent, step) {
            return unsafeBitCast(date, to: T.self)
        }
        if T.self == Data.self, let data = try decodeData(at: index, parent, step) {
            return unsafeBitCast(data, to: T.self)
        }
        if T.self == Decimal.self {
            switch decimal(at: index) {
            case .none: throw mismatch(Decimal.self, at: index, path: path(parent, step))
            case .some(.none): throw outOfRange(Decimal.self, at: index, path: path(parent, step))
            case .some(.some(let decimal)): return unsafeBitCast(decimal, to: T.self)
            }
        }
        if convertsKeys, let dictionary = T.self as? any StringKeyedDictionary.Type {
            return try decodeKeepingKeys(dictionary, as: T.self, at: index, parent, step)
        }
        switch kind(index) {
        case .array:
            // None of the types above is a list: this is where lists are read.
            return try decodeList(T.self, at: index, parent, step)
        case .object:
            // Objects only, as most other values that get here (enums, types of the app's own)
            // are not models.
            if usesFastPath, let fast = fastModel(T.self) {
                return fastDecode(fast, as: T.self, at: index, parent, step)
            }
        default:
            break
        }
        return try decodeWithDecoder(T.self, at: index, parent, step)
    }

    /// Lists of models with a fast path, `[String]` and the lists of numbers models hold, straight
    /// from the tape when every element fits; any other list, and one with an element that does
    /// not fit, through its own decoding.
    func decodeList<T: Decodable>(_ type: T.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> T {
        // A list of models starts with an object: other lists skip the look-up of `T`.
        if usesFastPath, tape.tokens[index].aux > 0, tape.tokens[index + 1].kind == .object, let list = fastModelListType(T.self),
            let items = list.kilnFastList(in: self, at: index, node: step.map { KilnPathNode(parent: parent, step: $0) } ?? parent) as? T
        {
            return items
        }
        if T.self is [String].Type, let items = stringArray(at: index) {
            return unsafeBitCast(items, to: T.self)
        }
        if let numbers = numberArray(T.self, at: index) { return numbers }
        return try decodeWithDecoder(T.self, at: index, parent, step)
    }

    /// A `[String: V]` under a key strategy, its keys as written (``StringKeyedDictionary``).
    func decodeKeepingKeys<T: Decodable>(
        _ dictionary: any StringKeyedDictionary.Type, as type: T.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?
    ) throws -> T {
        let value = try dictionary.decodeKeepingKeys(in: self, at: index, node: step.map { KilnPathNode(parent: parent, step: $0) } ?? parent)
        // `dictionary` is `T`: the cast does not fail.
        guard let kept = value as? T else { return try decodeWithDecoder(T.self, at: index, parent, step) }
        return kept
    }

    /// `T`'s own `init(from:)`, with a decoder for the value at `index`.
    func decodeWithDecoder<T: Decodable>(_ type: T.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> T {
        // A member: its node is made only if the path is asked for.
        if index >= 0, case .keyToken(let key)? = step, key == index - 1 {
            return try T(from: KilnValueDecoder(context: self, member: index, below: parent))
        }
        let node = step.map { KilnPathNode(parent: parent, step: $0) } ?? parent
        return try T(from: KilnValueDecoder(context: self, index: index, node: node))
    }

    /// A date by the date strategy; `nil` for `.deferredToDate`, which is `Date`'s own decoding.
    func decodeDate(at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> Date? {
        // `null` is refused before any strategy runs: a custom closure never sees it, as in Foundation.
        if kind(index) == .null { throw mismatch(Date.self, at: index, path: path(parent, step)) }
        switch strategies.date {
        case .deferredToDate:
            return nil
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, parent, step))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, parent, step) / 1000)
        case .iso8601:
            let text = try decodeString(at: index, parent, step)
            // Fractions are left to Foundation's parser: whether `.iso8601` takes them, and how it
            // rounds them, is its own (and differs between its versions).
            if let date = ISO8601Dates.internetDate(text, zeroFraction: false) { return date }
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(parent, step), debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        #if canImport(Darwin)
        // Elsewhere `.formatted` is built on `.custom` and arrives as that case.
        case .formatted(let formatter):
            let text = try decodeString(at: index, parent, step)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path(parent, step), debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        #endif
        case .custom(let read):
            return try read(KilnValueDecoder(context: self, index: index, node: step.map { KilnPathNode(parent: parent, step: $0) } ?? parent))
        @unknown default:
            return nil
        }
    }

    /// The date at `index` by the date strategy when it reads straight from the value: a number
    /// under `.deferredToDate` (`Date`'s own decoding: seconds since 2001) and the numeric
    /// strategies, an internet date under `.iso8601`. `nil` for anything else, which
    /// ``decodeDate(at:_:_:)`` reads or refuses by the full rules.
    @usableFromInline
    func plainDate(at index: Int) -> Date? {
        switch strategies.date {
        case .deferredToDate: return double(at: index).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .secondsSince1970: return double(at: index).map { Date(timeIntervalSince1970: $0) }
        case .millisecondsSince1970: return double(at: index).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            guard index >= 0, tape.tokens[index].kind == .string else { return nil }
            let token = tape.tokens[index]
            return ISO8601Dates.internetDate(UnsafeBufferPointer(start: tape.base + Int(token.payload), count: Int(token.aux)), zeroFraction: false)
        default: return nil
        }
    }

    /// Data by the data strategy; `nil` for `.deferredToData`, which is `Data`'s own decoding.
    func decodeData(at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) throws -> Data? {
        if kind(index) == .null { throw mismatch(Data.self, at: index, path: path(parent, step)) }
        switch strategies.data {
        case .base64:
            let text = try decodeString(at: index, parent, step)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(parent, step), debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .deferredToData:
            return nil
        case .custom(let read):
            return try read(KilnValueDecoder(context: self, index: index, node: step.map { KilnPathNode(parent: parent, step: $0) } ?? parent))
        @unknown default:
            return nil
        }
    }

    /// `[M]` for a model `M` with a fast path, each element read by its fast initializer as
    /// ``fastDecode(_:as:at:_:_:)`` reads one, below `node` (the list's node) at its position:
    /// without the `Decoder` protocol's dispatch per element and the copies of each model it
    /// made. `nil` when the list holds anything but objects, whose reads the generic decode
    /// decides (a lossy list drops or coerces them, a strict one fails).
    func fastModelList<M: KilnFastDecodable>(_ model: M.Type, at index: Int, node: KilnPathNode?) -> [M]? {
        guard kind(index) == .array else { return nil }
        let tokens = tape.tokens
        let end = Int(tokens[index].payload)
        var i = index + 1
        while i < end {
            guard tokens[i].kind == .object else { return nil }
            i = Int(tokens[i].payload)
        }
        var items: [M] = []
        items.reserveCapacity(Int(tokens[index].aux))
        i = index + 1
        var position = 0
        while i < end {
            items.append(readModel(M.self, at: i, node, .index(position)))
            i = Int(tokens[i].payload)
            position += 1
        }
        return items
    }

    /// Runs a model's generated fast initializer; `F` is `T`, opened from the existential.
    func fastDecode<F: KilnFastDecodable, T>(_ fast: F.Type, as type: T.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) -> T {
        unsafeBitCast(readModel(F.self, at: index, parent, step), to: T.self)
    }

    /// The model `M` at the object `index`, `step` below `parent`, read by its fast initializer;
    /// the member tables its reader files are let go when it is done.
    @inline(__always)
    func readModel<M: KilnFastDecodable>(_ model: M.Type, at index: Int, _ parent: KilnPathNode?, _ step: KilnPathNode.Step?) -> M {
        let mark = memberTables.top
        defer { memberTables.top = mark }
        var reader = KilnObjectReader(context: self, object: index, parent: parent, step: step, model: M.self)
        return M(kiln: &reader)
    }
}

/// `[String: Value]`, whose keys are data rather than coding keys: the key strategy leaves them as
/// written, and the first of two equal keys wins, as in Foundation.
protocol StringKeyedDictionary {
    static func decodeKeepingKeys(in context: KilnDecodingContext, at index: Int, node: KilnPathNode?) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static func decodeKeepingKeys(in context: KilnDecodingContext, at index: Int, node: KilnPathNode?) throws -> [String: Value] {
        guard context.kind(index) == .object else {
            throw context.mismatch([String: Any].self, at: index, path: KilnPathNode.codingPath(node, in: context.tape))
        }
        let tape = context.tape
        var result = [String: Value](minimumCapacity: Int(tape.tokens[index].aux))
        var i = index + 1
        let end = Int(tape.tokens[index].payload)
        while i < end {
            let key = tape.string(at: i)
            // A key met again keeps its first value, and the later member is not read (its
            // repairs are not logged, a value of the wrong type is no error), as in Foundation.
            if result.index(forKey: key) == nil {
                let value = try context.decodeValue(Value.self, at: i + 1, node, .dictionaryMember(key, at: i, convertsKeys: context.convertsKeys))
                // Moved in: this function is not specialized, and a copy goes through the
                // value's witness (a retain of each of its references, released with the local).
                result[key] = consume value
            }
            i = tape.next(after: i + 1)
        }
        return result
    }
}

/// `[M]` for a model `M` with a fast path: a list ``KilnDecodingContext/fastModelList(_:at:node:)``
/// reads.
protocol KilnFastModelList {
    /// The list at `index`, below `node`; `nil` when it holds anything but objects.
    static func kilnFastList(in context: KilnDecodingContext, at index: Int, node: KilnPathNode?) -> Self?
}

extension Array: KilnFastModelList where Element: KilnFastDecodable {
    static func kilnFastList(in context: KilnDecodingContext, at index: Int, node: KilnPathNode?) -> [Element]? {
        context.fastModelList(Element.self, at: index, node: node)
    }
}
