/// Where generated initializers get the defaults of properties with no initial value.
public enum ModelDefaults {
    /// The type's ``DefaultValueProviding`` value: `""`, `0`, `[]`, a nested model's `init()`…
    @inlinable public static func value<T: DefaultValueProviding>() -> T { T.defaultValue }

    /// `value`, typed as the property `property` reads: lets generated code declare a local of
    /// a property's type without naming the type (`{ (model: Self) in model.title }`). Costs
    /// nothing at run time.
    @inlinable @inline(__always)
    public static func typed<Model, Value>(_ property: (Model) -> Value, _ value: Value) -> Value {
        value
    }
}
