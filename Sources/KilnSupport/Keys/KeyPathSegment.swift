/// One step of a key path: an object member or an array element.
///
/// KilnModel's public `JSONPath.Component` is built from these; the macro writes them as
/// `JSONPath` literals.
package enum KeyPathSegment: Hashable, Sendable {
    /// An object member: `author` in `author.name`.
    case key(String)
    /// An array element: `0` in `tags[0]`.
    case index(Int)
}
