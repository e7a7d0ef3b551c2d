import Foundation
import KilnModel
import Testing

@DataModel
struct MessageQuery: Equatable {
    var page = 1
    var pageSize = 20
    var keyword: String?
    var serviceCode = "M01"
    var filter: Filter?
    var ids: [Int] = []
    @Key("sign_type") var signType = "md5"
}

@DataModel
struct Filter: Equatable {
    var unreadOnly = false
    var sender: String?
}

@Suite struct EncodingTests {
    @Test func encodesOriginalKeysAndSkipsNil() throws {
        let data = try JSONEncoder().encode(Keyed(published: "20161010", authorName: "Kai", views: 3, secondID: nil, userID: 1))
        let value = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(value["pub_date"] == "20161010")
        #expect(value["author"] == ["name": "Kai"])
        #expect(value["meta"] == ["stats": ["views": 3]])
        #expect(value["userID"] == 1)
        #expect(value.object?["avatarURLString"] == nil)
        #expect(value.object?["isExpanded"] == nil)
    }

    @Test func snakeCaseKeyStyleOnRequest() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.kilnKeyStyle] = KeyStyle.snakeCase
        let value = try JSONDecoder().decode(JSONValue.self, from: try encoder.encode(Keyed(userID: 4)))
        #expect(value["user_id"] == 4)
        #expect(value["pub_date"] == "")
    }

    @Test func parametersSkipNilsAndFlattenNestedValues() throws {
        var query = MessageQuery()
        query.filter = Filter(unreadOnly: true, sender: nil)
        query.ids = [3, 4]
        let parameters = try query.parameters(keyStyle: .snakeCase)
        #expect(
            parameters == [
                "page": "1", "page_size": "20", "service_code": "M01", "sign_type": "md5",
                "filter[unread_only]": "true", "ids[0]": "3", "ids[1]": "4",
            ])
        #expect(parameters["keyword"] == nil)
    }

    @Test func queryItemsAndFormBodyAreSortedAndEscaped() throws {
        var query = MessageQuery()
        query.keyword = "tea & 茶"
        let items = try query.queryItems()
        #expect(items.map(\.name) == ["keyword", "page", "pageSize", "serviceCode", "sign_type"])
        #expect(items.first { $0.name == "keyword" }?.value == "tea & 茶")
        let body = String(decoding: try query.formURLEncodedBody(), as: UTF8.self)
        #expect(body == "keyword=tea+%26+%E8%8C%B6&page=1&pageSize=20&serviceCode=M01&sign_type=md5")
    }

    @Test func jsonValueEncoderMatchesJSONEncoder() throws {
        let article = try JSONDecoder().decode(Article.self, from: json(#"{"id": 1, "title": "t", "tags": ["a"], "author": {"followers": 2}}"#))
        let viaBytes = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(article))
        let direct = try JSONValueEncoder().encode(article)
        #expect(viaBytes == direct)
    }
}
