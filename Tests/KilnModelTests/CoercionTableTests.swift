import Foundation
import KilnModel
import Testing

/// The coercion table of the TolerantDecoding article, row by row, through both decoders: the
/// table and the code cannot drift apart.
@Suite("The documented coercion table")
struct CoercionTableTests {
    struct Row: CustomStringConvertible, Sendable {
        var type: String
        var json: String
        var becomes: String? // nil: refused
        var description: String { "\(type) ← \(json)" }
    }

    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/KilnModel/Documentation.docc/TolerantDecoding.md")

    static let rows: [Row] = {
        guard let text = try? String(contentsOf: article, encoding: .utf8),
            let start = text.range(of: "<!-- coercion table")
        else { return [] }
        var rows: [Row] = []
        for line in text[start.upperBound...].split(separator: "\n").dropFirst(3) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3 else { continue }
            func unquote(_ cell: String) -> String { cell.hasPrefix("`") ? String(cell.dropFirst().dropLast()) : cell }
            rows.append(Row(type: unquote(cells[0]), json: unquote(cells[1]), becomes: cells[2] == "refused" ? nil : unquote(cells[2])))
        }
        return rows
    }()

    @Test func theTableIsThere() {
        #expect(Self.rows.count >= 40, "rows read from \(Self.article.path)")
        #expect(Set(Self.rows.map(\.type)) == ["Int", "Int32", "UInt8", "Double", "Float", "Decimal", "Bool", "String"])
    }

    @Test(arguments: rows)
    func eachRowHoldsThroughBothDecoders(row: Row) throws {
        switch row.type {
        case "Int": try check(IntBox.self, row)
        case "Int32": try check(Int32Box.self, row)
        case "UInt8": try check(UInt8Box.self, row)
        case "Double": try check(DoubleBox.self, row)
        case "Float": try check(FloatBox.self, row)
        case "Decimal": try check(DecimalBox.self, row)
        case "Bool": try check(BoolBox.self, row)
        case "String": try check(StringBox.self, row)
        default: Issue.record("no box for \(row.type)")
        }
    }

    func check<Box: CoercionBox>(_ type: Box.Type, _ row: Row, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = Data(#"{"v": \#(row.json)}"#.utf8)
        let (viaFoundation, foundationRepairs) = try JSONDecoder().decodeWithRepairs(Box.self, from: data)
        let (viaKiln, kilnRepairs) = try KilnDecoder().decodeWithRepairs(Box.self, from: data)
        #expect(viaKiln.shown == viaFoundation.shown, "\(row)", sourceLocation: sourceLocation)
        #expect(kilnRepairs.map(\.description) == foundationRepairs.map(\.description), "\(row)", sourceLocation: sourceLocation)
        let kinds = kilnRepairs.map(\.kind)
        if let becomes = row.becomes {
            #expect(viaKiln.shown == becomes, "\(row)", sourceLocation: sourceLocation)
            // A number of the right kind (`42.0` for an Int) needs no repair; anything else is coerced.
            #expect(kinds.count <= 1 && kinds.allSatisfy { $0 == .coerced }, "\(row): \(kilnRepairs)", sourceLocation: sourceLocation)
        } else {
            #expect(viaKiln.shown == Box().shown, "\(row): keeps the default", sourceLocation: sourceLocation)
            #expect(!kinds.isEmpty && !kinds.contains(.coerced), "\(row): \(kilnRepairs)", sourceLocation: sourceLocation)
        }
    }
}

protocol CoercionBox: Decodable {
    init()
    /// The value as the table writes it.
    var shown: String { get }
}

@DataModel struct IntBox: CoercionBox {
    var v = -99
    var shown: String { String(v) }
}
@DataModel struct Int32Box: CoercionBox {
    var v: Int32 = -99
    var shown: String { String(v) }
}
@DataModel struct UInt8Box: CoercionBox {
    var v: UInt8 = 99
    var shown: String { String(v) }
}
@DataModel struct DoubleBox: CoercionBox {
    var v = -99.0
    var shown: String { String(v) }
}
@DataModel struct FloatBox: CoercionBox {
    var v: Float = -99
    var shown: String { String(v) }
}
@DataModel struct DecimalBox: CoercionBox {
    var v: Decimal = -99
    var shown: String { "\(v)" }
}
@DataModel struct BoolBox: CoercionBox {
    var v: Bool? = nil
    var shown: String { v.map { String($0) } ?? "default" }
}
@DataModel struct StringBox: CoercionBox {
    var v = "default"
    var shown: String { "\"\(v)\"" }
}
