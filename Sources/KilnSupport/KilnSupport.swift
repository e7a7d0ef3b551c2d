// KilnSupport: the rules and primitives every Kiln module shares, with no dependency of its own.
//
// It is not a product. Its declarations are `package` access: visible to Kiln's own targets (the
// libraries and the `@DataModel` macro plugin, which needs the same key rules at compile time),
// never to apps.
