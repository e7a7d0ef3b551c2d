import Foundation
import KilnModel
import Testing

@DataModel
struct Item: Equatable, Sendable {
    var id: Int
    var name = "--"
}

@DataModel
struct Collections: Equatable {
    var items: [Item]
    var numbers: [Int]
    var scores: [String: Double]
    var optionalList: [Int]?
    var levels: [Level]
    var status: Status = .draft
    var level: Level = .low
}

@Suite struct CollectionTests {
    @Test func oneBadElementInAThousandKeepsTheOther999() throws {
        var elements = (0..<1000).map { #"{"id": \#($0), "name": "item \#($0)"}"# }
        elements[500] = #""not an item""#
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Collections.self, from: json(#"{"items": [\#(elements.joined(separator: ","))]}"#))
        #expect(value.items.count == 999)
        #expect(!value.items.contains { $0.id == 500 })
        #expect(value.items.last == Item(id: 999, name: "item 999"))
        let dropped = repairs.filter { $0.kind == .dropped }
        #expect(dropped.count == 1)
        #expect(dropped.first?.path == "items[500]")
    }

    @Test func elementsAreCoercedBeforeBeingDropped() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Collections.self, from: json(#"{"numbers": [1, "2", 3.0, "x", null, 4]}"#))
        #expect(value.numbers == [1, 2, 3, 4])
        #expect(repairs.filter { $0.kind == .dropped }.map(\.path) == ["numbers[3]", "numbers[4]"])
        #expect(repairs.contains { $0.path == "numbers[1]" && $0.kind == .coerced })
    }

    @Test func dictionariesAreLossyToo() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Collections.self, from: json(#"{"scores": {"a": 1.5, "b": "2", "c": "high"}}"#))
        #expect(value.scores == ["a": 1.5, "b": 2])
        #expect(repairs.contains { $0.path == "scores.c" && $0.kind == .dropped })
    }

    @Test func optionalCollectionsAreLossy() throws {
        let value = try JSONDecoder().decode(Collections.self, from: json(#"{"optionalList": [1, "two", 3]}"#))
        #expect(value.optionalList == [1, 3])
    }

    @Test func aNonArrayWhereAnArrayBelongsIsTheDefault() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Collections.self, from: json(#"{"items": {"id": 1}}"#))
        #expect(value.items == [])
        #expect(repairs.contains { $0.path == "items" && $0.kind == .invalid })
    }

    @Test func unknownEnumValuesFallBack() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(
            Collections.self, from: json(#"{"status": "archived", "level": "2", "levels": [1, 7, "2"]}"#))
        #expect(value.status == .unknown)
        #expect(value.level == .high)
        #expect(value.levels == [.low, .other, .high])
        #expect(repairs.contains { $0.description == #"status: expected Status, found "archived" → unknown"# })
        #expect(repairs.contains { $0.path == "levels[1]" && $0.kind == .fallback })
    }

    @Test func topLevelArraysAreLossy() throws {
        let (items, repairs) = try JSONDecoder().decodeWithRepairs([Item].self, from: json(#"[{"id": 1}, 5, {"id": "3"}]"#))
        #expect(items == [Item(id: 1, name: "--"), Item(id: 3, name: "--")])
        #expect(repairs.contains { $0.path == "[1]" && $0.kind == .dropped })
    }
}
