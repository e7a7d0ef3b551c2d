// The C library, imported once for every Kiln module: `import KilnSupport` brings `stat`, `open`,
// `pthread_mutex_t`, `os_unfair_lock` and the rest, so no other file repeats the platform ladder.
//
// Re-exported rather than wrapped: the modules use a dozen libc calls and types between them
// (files, sockets, terminals, locks), and wrappers would restate each signature for no rule of
// their own. The re-export stays inside Kiln: `KilnSupport` is not a product, and a module that
// imports it does not pass the C library on to its own clients.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(ucrt)
@_exported import ucrt
#endif

/// The C `read` and `write`, for types whose own methods have those names and would otherwise
/// shadow them (a module-qualified name differs per platform).
package enum LibC {
    /// The C `write(2)`: the number of bytes written, or -1 with `errno` set.
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(descriptor, buffer, count)
        #elseif canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Musl.write(descriptor, buffer, count)
        #endif
    }

    /// The C `read(2)`: the number of bytes read, 0 at the end, or -1 with `errno` set.
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
        #elseif canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Musl.read(descriptor, buffer, count)
        #endif
    }
}
