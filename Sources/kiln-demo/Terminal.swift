import Foundation
import KilnSupport

/// A key the interactive demo understands.
enum Key: Equatable, Sendable {
    case up, down, left, right, tab, backTab, enter, escape
    case character(Character)
}

/// The terminal in raw mode: keys in as an `AsyncStream`, frames out with ANSI escapes.
final class Terminal: @unchecked Sendable {
    private var original = termios()
    private var isRaw = false

    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    func enterRawMode() {
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        isRaw = true
        write("\u{1B}[?25l") // hide the cursor
    }

    func restore() {
        guard isRaw else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        isRaw = false
        write("\u{1B}[?25h\n")
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Clears the screen and draws `lines`.
    func draw(_ lines: [String]) {
        write("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n") + "\r\n")
    }

    /// Keys as they are typed, read on a thread of their own.
    func keys() -> AsyncStream<Key> {
        AsyncStream { continuation in
            let thread = Thread {
                var pending: [UInt8] = []
                while true {
                    var byte: UInt8 = 0
                    let count = read(STDIN_FILENO, &byte, 1)
                    if count <= 0 {
                        continuation.finish()
                        return
                    }
                    pending.append(byte)
                    if let key = Self.parse(&pending) { continuation.yield(key) }
                }
            }
            thread.start()
        }
    }

    /// Turns bytes into a key once a whole key has arrived.
    static func parse(_ bytes: inout [UInt8]) -> Key? {
        guard let first = bytes.first else { return nil }
        if first == 0x1B {
            if bytes.count == 1 { return nil }
            if bytes.count == 2 { return bytes[1] == UInt8(ascii: "[") ? nil : take(&bytes, .escape) }
            switch bytes[2] {
            case UInt8(ascii: "A"): return take(&bytes, .up)
            case UInt8(ascii: "B"): return take(&bytes, .down)
            case UInt8(ascii: "C"): return take(&bytes, .right)
            case UInt8(ascii: "D"): return take(&bytes, .left)
            case UInt8(ascii: "Z"): return take(&bytes, .backTab)
            default: return take(&bytes, .escape)
            }
        }
        switch first {
        case 0x09: return take(&bytes, .tab)
        case 0x0A, 0x0D: return take(&bytes, .enter)
        default:
            guard let text = String(bytes: bytes, encoding: .utf8), let character = text.first else {
                return bytes.count > 4 ? take(&bytes, .escape) : nil
            }
            return take(&bytes, .character(character))
        }
    }

    private static func take(_ bytes: inout [UInt8], _ key: Key) -> Key {
        bytes.removeAll()
        return key
    }
}
