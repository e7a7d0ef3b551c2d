/// The writer that `@DataModel`'s generated `encode(to:)` uses: original keys, nil skipped,
/// key paths rebuilt as nested objects, transforms applied.
///
/// Public because the macro's expansion calls it; you rarely use it directly.
public struct ModelEncodingContainer {
    var container: KeyedEncodingContainer<AnyCodingKey>
    let keyStyle: KeyStyle
    var nested: JSONValue = .null

    /// Opens the object a model encodes into.
    public init(encoder: any Encoder) {
        container = encoder.container(keyedBy: AnyCodingKey.self)
        keyStyle = encoder.userInfo[.kilnKeyStyle] as? KeyStyle ?? .asWritten
    }

    /// Writes a property that has no `@Key` (in a model that declares no key style), under its
    /// name in the encoder's ``KeyStyle``.
    public mutating func encode<T: Encodable>(_ value: T, property: String) throws {
        try container.encode(value, forKey: AnyCodingKey(keyStyle.key(for: property)))
    }

    /// Writes an optional property that has no `@Key`; `nil` is left out.
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, property: String) throws {
        try container.encodeIfPresent(value, forKey: AnyCodingKey(keyStyle.key(for: property)))
    }

    /// Writes a property under a fixed key: its `@Key`, or its name in the model's declared style.
    public mutating func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        try container.encode(value, forKey: AnyCodingKey(key))
    }

    /// Writes an optional property under a fixed key; `nil` is left out.
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: String) throws {
        try container.encodeIfPresent(value, forKey: AnyCodingKey(key))
    }

    /// Writes a property at a key path (`@Key("author.name")`), inside nested objects.
    public mutating func encode<T: Encodable>(_ value: T, at path: JSONPath) throws {
        try place(try JSONValueEncoder(userInfo: [.kilnKeyStyle: keyStyle]).encode(value), at: path)
    }

    /// Writes an optional property at a key path; `nil` is left out.
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, at path: JSONPath) throws {
        guard let value else { return }
        try encode(value, at: path)
    }

    /// Writes a property whose key is also the first part of another property's key path
    /// (`var author` beside `@Key("author.name")`): the two objects are merged.
    public mutating func encode<T: Encodable>(_ value: T, merging key: String) throws {
        nested.set(try JSONValueEncoder(userInfo: [.kilnKeyStyle: keyStyle]).encode(value), at: [.key(key)])
    }

    /// Writes an optional property that shares its key with another property's key path; `nil`
    /// is left out.
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, merging key: String) throws {
        guard let value else { return }
        try encode(value, merging: key)
    }

    /// Writes a property that has no `@Key` (in a model that declares no key style) through its
    /// ``ValueTransform``, under its name in the encoder's ``KeyStyle``.
    public mutating func encode<X: ValueTransform>(_ value: X.Value, property: String, transform: X) throws {
        try container.encode(transform.encode(value), forKey: AnyCodingKey(keyStyle.key(for: property)))
    }

    /// Writes an optional property that has no `@Key` through its ``ValueTransform``; `nil` is
    /// left out.
    public mutating func encodeIfPresent<X: ValueTransform>(_ value: X.Value?, property: String, transform: X) throws {
        guard let value else { return }
        try encode(value, property: property, transform: transform)
    }

    /// Writes a property through its ``ValueTransform`` at a fixed key or key path.
    public mutating func encode<X: ValueTransform>(_ value: X.Value, at path: JSONPath, transform: X) throws {
        try place(transform.encode(value), at: path)
    }

    /// Writes an optional property through its ``ValueTransform`` at a fixed key or key path;
    /// `nil` is left out.
    public mutating func encodeIfPresent<X: ValueTransform>(_ value: X.Value?, at path: JSONPath, transform: X) throws {
        guard let value else { return }
        try place(transform.encode(value), at: path)
    }

    /// Writes what was placed at key paths. Called last by generated code.
    public mutating func finish() throws {
        guard case .object(let members) = nested else { return }
        for (key, value) in members {
            try container.encode(value, forKey: AnyCodingKey(key))
        }
    }

    private mutating func place(_ value: JSONValue, at path: JSONPath) throws {
        if path.components.count == 1, case .key(let key) = path.components[0] {
            try container.encode(value, forKey: AnyCodingKey(key))
        } else {
            nested.set(value, at: path.components[...])
        }
    }
}

extension JSONValue {
    /// Sets `value` at `path`, creating objects and arrays (padded with `null`) on the way; an
    /// object set where an object already is merges with it, the new members winning.
    ///
    /// ```swift
    /// var body: JSONValue = [:]
    /// body.set("Kai", at: "author.name")   // {"author":{"name":"Kai"}}
    /// ```
    public mutating func set(_ value: JSONValue, at path: JSONPath) {
        set(value, at: path.components[...])
    }

    /// Sets `value` at `path`, creating objects and arrays (padded with null) on the way; an
    /// object set where an object is already merges with it, the new members winning.
    mutating func set(_ value: JSONValue, at path: ArraySlice<JSONPath.Component>) {
        guard let first = path.first else {
            if case .object(let existing) = self, case .object(let incoming) = value {
                self = .object(existing.merging(incoming) { _, new in new })
            } else {
                self = value
            }
            return
        }
        switch first {
        case .key(let key):
            var members = object ?? [:]
            var child = members[key] ?? .null
            child.set(value, at: path.dropFirst())
            members[key] = child
            self = .object(members)
        case .index(let index):
            var items = array ?? []
            while items.count <= index { items.append(.null) }
            items[index].set(value, at: path.dropFirst())
            self = .array(items)
        }
    }
}
