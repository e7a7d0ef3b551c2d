/// Where generated initializers get the defaults of properties with no initial value.
public enum ModelDefaults {
    /// The type's ``DefaultValueProviding`` value: `""`, `0`, `[]`, a nested model's `init()`…
    @inlinable public static func value<T: DefaultValueProviding>() -> T { T.defaultValue }
}
