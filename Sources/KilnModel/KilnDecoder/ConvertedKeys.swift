/// The keys of an object as a key strategy (`keyDecodingStrategy`) converts them, one name per
/// member in document order, and for each name the first member that has it (two keys that
/// convert alike are read from the first, as in Foundation).
///
/// Objects of one type usually have their keys written alike: under `.convertFromSnakeCase`
/// such objects share one layout (``KilnDecodingContext/convertedMembers(of:codingPath:)``), so
/// a key is converted and hashed once per decode, not once per object.
final class ConvertedKeyLayout {
    /// The converted name of each member, in document order.
    let names: [String]
    /// Each name's first member, by its place among the members.
    let firsts: [String: Int]
    /// Whether the member at each place is its name's first.
    let isFirst: [Bool]
    /// The keys as written in the document (between the quotes), one after another, and the
    /// length of each: what another object must hold to share this layout.
    private let written: [UInt8]
    private let lengths: [UInt32]

    /// The layout of the object at `object` in `tape`, its keys converted by `convert`.
    init(of object: Int, in tape: JSONTape, convert: (String) -> String) {
        let count = Int(tape.tokens[object].aux)
        var names: [String] = []
        var firsts: [String: Int] = [:]
        var isFirst: [Bool] = []
        var written: [UInt8] = []
        var lengths: [UInt32] = []
        names.reserveCapacity(count)
        firsts.reserveCapacity(count)
        isFirst.reserveCapacity(count)
        lengths.reserveCapacity(count)
        var key = object + 1
        let end = Int(tape.tokens[object].payload)
        while key < end {
            let token = tape.tokens[key]
            let name = convert(tape.string(at: key))
            let first = firsts[name] == nil
            if first { firsts[name] = names.count }
            isFirst.append(first)
            names.append(name)
            written.append(contentsOf: UnsafeBufferPointer(start: tape.base + Int(token.payload), count: Int(token.aux)))
            lengths.append(token.aux)
            key = tape.next(after: key + 1)
        }
        self.names = names
        self.firsts = firsts
        self.isFirst = isFirst
        self.written = written
        self.lengths = lengths
    }

    /// Whether the object at `object` in `tape` has this layout's keys, written alike and in
    /// the same order: then they convert to the same names.
    func fits(_ object: Int, in tape: JSONTape) -> Bool {
        guard Int(tape.tokens[object].aux) == lengths.count else { return false }
        return written.withUnsafeBytes { written in
            // No bytes (every key empty): nothing is read from them.
            let start = written.baseAddress ?? UnsafeRawPointer(tape.base)
            var offset = 0
            var key = object + 1
            for length in lengths {
                let token = tape.tokens[key]
                guard token.aux == length,
                    JSONTape.bytesEqual(tape.base + Int(token.payload), start + offset, count: Int(length))
                else { return false }
                offset += Int(length)
                key = tape.next(after: key + 1)
            }
            return true
        }
    }
}

/// The members of one object under converted keys (``ConvertedKeyLayout``), with a hint: coding
/// keys are mostly read in the document's order, so a look-up usually compares one name.
final class ConvertedMembers {
    let layout: ConvertedKeyLayout
    let object: Int
    private let tape: JSONTape
    /// The member after the one found last: its place, and its key token.
    private var nextPlace = 0
    private var nextKey: Int

    init(_ layout: ConvertedKeyLayout, object: Int, in tape: JSONTape) {
        self.layout = layout
        self.object = object
        self.tape = tape
        nextKey = object + 1
    }

    /// The value token of the member whose converted key is `name`, or `nil`.
    func member(_ name: String) -> Int? {
        let names = layout.names
        var key: Int
        let place: Int
        if nextPlace < names.count, layout.isFirst[nextPlace], names[nextPlace] == name {
            key = nextKey
            place = nextPlace
        } else {
            guard let first = layout.firsts[name] else { return nil }
            place = first
            key = object + 1
            for _ in 0..<first { key = tape.next(after: key + 1) }
        }
        nextPlace = place + 1
        nextKey = tape.next(after: key + 1)
        return key + 1
    }

    /// The converted keys, each once, in the order of their first members.
    var keys: [String] {
        zip(layout.names, layout.isFirst).compactMap { name, isFirst in isFirst ? name : nil }
    }
}
