import Foundation
import KilnModel

/// Tests for strings and numbers that deserve a richer Swift type. Dates are recognized with
/// KilnModel's own transforms, so whatever is inferred as a date is what the model will read.
enum Recognizers {
    static func isISODate(_ text: String) -> Bool {
        // Require a date and a time: plain numbers or words never pass, and "2016-10-10" alone
        // is not something `.iso8601` reads.
        guard text.count >= 16, text.contains("T"), text.first?.isNumber == true else { return false }
        return DateTransform.iso8601.decode(.string(text)) != nil
    }

    /// An ISO 8601 date that `.iso8601` writes back as the same text.
    static func isRoundTrippingISODate(_ text: String) -> Bool {
        guard let date = DateTransform.iso8601.decode(.string(text)) else { return false }
        return DateTransform.iso8601.encode(date) == .string(text)
    }

    static func isWebURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !text.contains(" ") else { return false }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else { return false }
        return URLTransform.url.decode(.string(text))?.absoluteString == text
    }

    static func isUUID(_ text: String) -> Bool {
        text.count == 36 && UUID(uuidString: text) != nil
    }

    /// `20161010` or `"20161010"` between 1900 and 2100 that `.yyyyMMdd` reads.
    static func isEightDigitDate(_ value: JSONValue) -> Bool {
        let text: String
        switch value {
        case .int(let number): text = String(number)
        case .string(let string): text = string
        default: return false
        }
        guard text.count == 8, text.allSatisfy(\.isASCII), let number = Int(text), (19_000_101...21_001_231).contains(number) else { return false }
        return DateTransform.yyyyMMdd.decode(value) != nil
    }
}
