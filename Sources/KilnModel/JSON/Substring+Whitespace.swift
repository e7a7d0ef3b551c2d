extension Unicode.Scalar {
    /// A tab or a space of any Unicode kind: exactly the characters of Foundation's
    /// `CharacterSet.whitespaces` (the space separators, U+0009, and U+200B as CoreFoundation
    /// counts it). Line breaks are not among them.
    var isHorizontalWhitespace: Bool {
        switch value {
        case 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

extension Substring {
    /// The text without leading and trailing tabs and spaces of any Unicode kind — what
    /// `trimmingCharacters(in: .whitespaces)` returns, without bridging through `NSString` and
    /// without a copy.
    var trimmingHorizontalWhitespace: Substring {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start].isHorizontalWhitespace { scalars.formIndex(after: &start) }
        while start < end {
            let last = scalars.index(before: end)
            guard scalars[last].isHorizontalWhitespace else { break }
            end = last
        }
        return self[start..<end]
    }
}
