extension JSONValue {
    /// The member named `key`, or the value at a path such as `"author.name"` or `"list[2].id"`.
    ///
    /// A key that exists as written wins over reading it as a path, so keys containing dots still
    /// work. Anything missing reads as ``JSONValue/null``, so lookups chain without optionals:
    ///
    /// ```swift
    /// let name = response["data.author.name"].string ?? "--"
    /// ```
    public subscript(key: String) -> JSONValue {
        if case .object(let members) = self, let value = members[key] { return value }
        guard key.contains(".") || key.contains("[") else { return .null }
        guard let path = try? JSONPath(parsing: key) else { return .null }
        return self[path: path]
    }

    /// The element at `index` of an array, or ``JSONValue/null`` when out of range or not an array.
    public subscript(index: Int) -> JSONValue {
        guard case .array(let items) = self, items.indices.contains(index) else { return .null }
        return items[index]
    }

    /// The value at a parsed key path, or ``JSONValue/null``.
    public subscript(path path: JSONPath) -> JSONValue {
        var current = self
        for component in path.components {
            switch component {
            case .key(let key):
                guard case .object(let members) = current, let next = members[key] else { return .null }
                current = next
            case .index(let index):
                current = current[index]
            }
        }
        return current
    }

    /// Whether this is `null` (which is also what missing members read as).
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The value as a string, coercing numbers and booleans (`42` → `"42"`); `nil` for null,
    /// arrays and objects.
    public var string: String? { String.coerce(from: self, truncating: false) }

    /// The value as an `Int`, coercing numeric strings and integral doubles (`"42"`, `42.0` → `42`).
    /// Fractional numbers are `nil`: use ``double`` for those.
    public var int: Int? { Int.coerce(from: self, truncating: false) }

    /// The value as an `Int64`, with the same rules as ``int``.
    public var int64: Int64? { Int64.coerce(from: self, truncating: false) }

    /// The value as a `Double`, coercing numeric strings (`"3.5"` → `3.5`).
    public var double: Double? { Double.coerce(from: self, truncating: false) }

    /// The value as a `Bool`: `true`/`false`, `1`/`0`, and the strings `"true"`, `"yes"`, `"1"`
    /// (and their opposites), case-insensitively.
    public var bool: Bool? { Bool.coerce(from: self, truncating: false) }

    /// The elements, when this is an array.
    public var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }

    /// The members, when this is an object.
    public var object: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
}
