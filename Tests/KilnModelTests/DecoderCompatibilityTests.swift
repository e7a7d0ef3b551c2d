import Foundation
import KilnModel
import Testing

@Suite struct DecoderCompatibilityTests {
    @Test func propertyListDecoderGetsTheSameTolerance() throws {
        let plist: [String: Any] = ["id": "12", "title": 99, "tags": ["a", 1, "b"], "author": ["nick_name": "Kai", "followers": "3"]]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let session = DecodingSession()
        let decoder = PropertyListDecoder()
        decoder.userInfo[.kilnDecodingSession] = session
        let article = try decoder.decode(Article.self, from: data)
        #expect(article.id == 12)
        #expect(article.title == "99")
        #expect(article.tags == ["a", "1", "b"])
        #expect(article.author.nickName == "Kai")
        #expect(article.author.followers == 3)
        #expect(article.desc == "")
        #expect(session.repairs.contains { $0.path == "id" && $0.kind == .coerced })
    }

    @Test func encodedModelsDecodeBackEqual() throws {
        var article = Article()
        article.id = 3
        article.title = "Hello"
        article.tags = ["x"]
        article.author = Author(userID: 9, nickName: "Kai", followers: 12)
        article.authorName = "Kai"
        article.published = "20161010"
        article.coverURL = nil
        let data = try JSONEncoder().encode(article)
        #expect(try JSONDecoder().decode(Article.self, from: data) == article)
        let plist = try PropertyListEncoder().encode(article)
        #expect(try PropertyListDecoder().decode(Article.self, from: plist) == article)
    }

    @Test func finalClassesWork() throws {
        let box = try JSONDecoder().decode(ClassModel.self, from: json(#"{"name": 5, "children": [{"name": "a"}]}"#))
        #expect(box.name == "5")
        #expect(box.children.first?.name == "a")
        #expect(ClassModel().name == "")
    }
}

@DataModel
final class ClassModel: Sendable {
    let name: String
    let children: [Item]

    var summary: String { "\(name) (\(children.count))" }
}
