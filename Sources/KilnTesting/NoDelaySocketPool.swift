import FlyingFox
import FlyingSocks
import Foundation
import KilnSupport

/// FlyingFox's socket pool with Nagle's algorithm turned off on every socket it waits on.
///
/// FlyingFox writes a response's head and body in separate writes. With Nagle's algorithm on,
/// the second write waits for the ACK of the first, and the client delays that ACK (up to 40 ms
/// on Linux), so every small request on a kept-alive connection took about 44 ms. Every socket
/// the server waits on (the listening socket, then each connection before its first read) goes
/// through here, so each gets `TCP_NODELAY` before it carries a response.
struct NoDelaySocketPool<Base: AsyncSocketPool>: AsyncSocketPool {
    let base: Base

    func prepare() async throws {
        try await base.prepare()
    }

    func run() async throws {
        try await base.run()
    }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        // Idempotent and cheap next to the wait itself; a socket that is not TCP (or already
        // closed) refuses the option, which changes nothing.
        try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
