/// Exposes the macro's snake_case rule to tests, so it can be checked against `KeyStyle`'s.
public enum KeyStyleProbe {
    /// The snake_case twin the generated code tries for a property name.
    public static func snake(_ name: String) -> String { ModelKeyStyle.snakeCase(name) }
}
