import Foundation

/// Reads a URL from a string, trimming white space and percent-encoding spaces; an empty string
/// is no URL.
///
/// ```swift
/// @Transform(.url) var avatar: URL?
/// ```
public struct URLTransform: ValueTransform {
    /// Makes the transform.
    public init() {}

    public func decode(_ json: JSONValue) -> URL? {
        guard let text = json.string?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return URL(string: text) ?? URL(string: text.replacingOccurrences(of: " ", with: "%20"))
    }

    public func encode(_ value: URL) -> JSONValue { .string(value.absoluteString) }
}

extension ValueTransform where Self == URLTransform {
    /// A URL from a string.
    public static var url: URLTransform { URLTransform() }
}

/// Reads a list written as one string, `"swift,ios, mvvm"` → `["swift", "ios", "mvvm"]`
/// (trimmed, empty items left out); an array is read as it is, an element that is not text left
/// out with a `dropped` repair.
///
/// ```swift
/// @Transform(.commaSeparated) var tags: [String] = []
/// ```
public struct SeparatedListTransform: ValueTransform {
    /// The separator, `","` by default.
    public var separator: Character

    /// A transform splitting on `separator`.
    public init(separator: Character = ",") { self.separator = separator }

    public func decode(_ json: JSONValue, context: inout TransformContext) -> [String]? {
        if let items = json.array {
            var values: [String] = []
            for (index, item) in items.enumerated() {
                if let text = item.string {
                    values.append(text)
                } else {
                    context.record(.dropped, at: "[\(index)]", expected: "String", found: item.preview(), result: "dropped")
                }
            }
            return values
        }
        guard let text = json.string else { return nil }
        return text.split(separator: separator).map { String($0.trimmingHorizontalWhitespace) }.filter { !$0.isEmpty }
    }

    public func encode(_ value: [String]) -> JSONValue { .string(value.joined(separator: String(separator))) }
}

extension ValueTransform where Self == SeparatedListTransform {
    /// A list written as comma-separated text.
    public static var commaSeparated: SeparatedListTransform { SeparatedListTransform() }
    /// A list written as text separated by `separator`.
    public static func separated(by separator: Character) -> SeparatedListTransform { SeparatedListTransform(separator: separator) }
}
