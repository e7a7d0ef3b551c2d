import Foundation
import KilnGenerator
import Testing

/// Golden outputs for what the generator unifies: one type per kind of object wherever it
/// appears, recursive types, maps keyed by id, and roots that are not one object.
@Suite struct ShapeMergingTests {
    @Test func identicalAndCompatibleShapesAreOneTypeNamedAfterTheirKey() throws {
        let source = try generate(
            #"""
            {"photo": {"sizes": {"small": {"w": 1, "h": 2}, "large": {"w": 3, "h": 4}}},
             "video": {"sizes": {"small": {"w": 5, "h": 6}, "large": {"w": 7, "h": 8, "crop": true}}}}
            """#)
        #expect(
            source == """
                import Foundation
                import KilnModel

                @DataModel
                nonisolated struct Model: Sendable {
                    var photo: Photo
                    var video: Photo

                    @DataModel
                    nonisolated struct Photo: Sendable {
                        var sizes: Sizes
                    }

                    @DataModel
                    nonisolated struct Sizes: Sendable {
                        var small: Small
                        var large: Large
                    }

                    @DataModel
                    nonisolated struct Small: Sendable {
                        var w: Int
                        var h: Int
                    }

                    @DataModel
                    nonisolated struct Large: Sendable {
                        var w: Int
                        var h: Int
                        var crop: Bool?
                    }
                }

                """)
    }

    @Test func aTreeIsOneRecursiveType() throws {
        // The root is a node like its children: one type, and the leaves make `children` optional.
        let source = try generate(
            #"{"name": "root", "children": [{"name": "a", "children": [{"name": "b", "children": []}]}, {"name": "c"}]}"#,
            name: "Tree")
        #expect(
            source == """
                import Foundation
                import KilnModel

                @DataModel
                nonisolated struct Tree: Sendable {
                    var name: String
                    var children: [Tree]?
                }

                """)
    }

    @Test func aTreeBelowTheRootIsOneRecursiveType() throws {
        let source = try generate(
            #"{"title": "t", "menu": [{"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}]}"#,
        )
        #expect(source.contains("var menu: [MenuItem]"), "\(source)")
        #expect(
            source.contains(
                """
                    nonisolated struct MenuItem: Sendable {
                        var label: String
                        var children: [MenuItem]?
                    }
                """), "\(source)")
    }

    @Test func aLinkedListIsAClassWithAnOptionalLink() throws {
        let source = try generate(#"{"head": {"value": 1, "next": {"value": 2, "next": {"value": 3, "next": null}}}}"#)
        // A class, declared beside the top-level type and named after it.
        #expect(source.contains("    var head: ModelHead\n"), "\(source)")
        #expect(
            source.contains(
                """
                @DataModel
                nonisolated final class ModelHead: Sendable {
                    let value: Int
                    let next: ModelHead?
                }
                """), "\(source)")
    }

    /// A comment's `replies` is `""` or another listing of comments: the loop runs through
    /// `data`, `children[]`, `data` and `replies`, and the union holds the listing in place, so
    /// the union is `indirect` and the records stay structs.
    @Test func aLoopThroughAUnionMakesTheUnionIndirect() throws {
        let source = try generate(
            #"""
            {"kind": "Listing", "data": {"children": [
              {"kind": "t1", "data": {"body": "a", "replies": {"kind": "Listing", "data": {"children": [
                {"kind": "t1", "data": {"body": "b", "replies": ""}}]}}}}]}}
            """#, name: "Listing")
        #expect(source.contains("    var data: ListingData\n"), "\(source)")
        #expect(source.contains("        var replies: RepliesUnion?\n"), "\(source)")
        #expect(
            source.contains(
                """
                    nonisolated indirect enum RepliesUnion: Codable, Sendable {
                        case string(String)
                        case object(Listing)
                """), "\(source)")
        #expect(!source.contains("class"), "\(source)")
    }

    @Test func objectsKeyedByIdAreDictionaries() throws {
        let source = try generate(
            #"{"users": {"1264": {"name": "a", "age": 3}, "1265": {"name": "b"}}, "ids": {"3f1c2a9e-5b7d-4e8f-9a01-23456789abcd": 1, "0b8e4c1d-2f3a-4b5c-8d6e-7f8091a2b3c4": 2}}"#
        )
        #expect(source.contains("var users: [String: User] // keyed by id"), "\(source)")
        #expect(source.contains("var ids: [String: Int] // keyed by id"), "\(source)")
        #expect(
            source.contains(
                """
                    nonisolated struct User: Sendable {
                        var name: String
                        var age: Int?
                    }
                """), "\(source)")
        #expect(!source.contains("T1264"))
    }

    @Test(arguments: [
        (#"[1, 2, 3]"#, "typealias Model = [Int]", "[Int]"),
        (#"[[1, 2], [3.5]]"#, "typealias Model = [[Double]]", "[[Double]]"),
        (#""text""#, "typealias Model = String", "String"),
        (#"[{"page": 1}, [{"id": 1}]]"#, "typealias Model = [ModelItemUnion]", "[ModelItemUnion]"),
        (#"[]"#, "typealias Model = [JSONValue] // always empty in the samples", "[JSONValue]"),
    ])
    func rootsThatHoldNoObjectAreTypeAliases(sample: String, declaration: String, decoded: String) throws {
        let source = try generate(sample) { $0.writesHeader = true }
        #expect(
            source.contains("\n\(declaration)\n")
                || source.contains("\n\(declaration.split(separator: "/").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")\n"), "\(source)")
        #expect(source.contains("decode(Model.self"), "\(source)")
    }

    @Test func rootArraysOfArraysOfObjectsDecodeAsNestedArrays() throws {
        let source = try generate(#"[[{"id": 1}], [{"id": 2}, null]]"#) { $0.writesHeader = true }
        #expect(source.contains("// Decode with: JSONDecoder().decode([[Model?]].self, from: data, at: nil)"), "\(source)")
        #expect(source.contains("struct Model: Sendable {\n    var id: Int\n}"), "\(source)")
    }

    @Test func theKeyPathMayStepIntoAnArray() throws {
        let source = try generate(#"{"data": {"list": [{"id": 1, "title": "a"}, {"id": 2}]}}"#) {
            $0.keyPath = "data.list[0]"
            $0.writesHeader = true
        }
        #expect(source.contains(#"decode(Model.self, from: data, at: "data.list[0]")"#), "\(source)")
        #expect(source.contains("var title: String\n"), "\(source)")
    }
}
