/// The generated article payload of the decode benchmark: a ~9 MB paged API response,
/// `{"code":"0000","msg":"ok","data":{"page":1,"total_pages":400,"list":[...]}}`, with the
/// unfriendly details real servers send (numbers as strings, `0`/`1` booleans, nulls, "12k").
///
/// Built from a fixed seed, so every run and every test reads the same bytes.
public enum ArticlePayload {
    /// The payload as UTF-8 bytes.
    public static func make(articles count: Int = 20_000, seed: UInt64 = 0x5EED_0F_A271C1E5) -> [UInt8] {
        make(as: [UInt8].self, articles: count, seed: seed)
    }

    /// The payload in any byte collection: as `Data`, written in place, with no copy made and
    /// dropped (which would stand above the decodes in a heap profile of the benchmark).
    public static func make<Bytes: RangeReplaceableCollection>(
        as type: Bytes.Type, articles count: Int = 20_000, seed: UInt64 = 0x5EED_0F_A271C1E5
    )
        -> Bytes where Bytes.Element == UInt8
    {
        var random = SplitMix64(seed: seed)
        let open = #"{"code":"0000","msg":"ok","data":{"page":1,"total_pages":400,"list":["#
        return GeneratedList.make(count, between: open, and: "]}}", bytesEach: 470) { index, out in
            writeArticle(id: 100_000 + index, random: &random, to: &out)
        }
    }

    static let words = [
        "swift", "kiln", "data", "factory", "model", "view", "cache", "network", "server", "client",
        "tolerant", "decode", "fast", "json", "layer", "state", "list", "page", "author", "article",
        "数据", "模型", "工厂", "网络", "缓存", "视图", "café", "naïve", "Zürich", "emoji🙂",
    ]
    static let tags = ["ios", "swift", "mvvm", "linux", "server", "design", "perf", "json", "ui", "testing"]

    static func writeArticle<Bytes: RangeReplaceableCollection>(id: Int, random: inout SplitMix64, to out: inout Bytes) where Bytes.Element == UInt8 {
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        func sentence(_ words: Int) -> String {
            var parts: [String] = []
            for _ in 0..<words { parts.append(Self.words[Int(random.next() % UInt64(Self.words.count))]) }
            return parts.joined(separator: " ")
        }
        append(#"{"article_id":\#(id),"title":"\#(sentence(4 + Int(random.next() % 5)))","#)
        var desc = sentence(16 + Int(random.next() % 14))
        if random.next() % 10 == 0 { desc += #" \"quoted\" \n new line"# }
        append(#""desc":"\#(desc)","#)
        let day = 20_160_101 + Int(random.next() % 28) + 100 * Int(random.next() % 12)
        append(random.next() % 4 == 0 ? #""pub_date":"\#(day)","# : #""pub_date":\#(day),"#)
        let views = Int(random.next() % 200_000)
        append(random.next() % 5 == 0 ? #""view_count":"\#(views)","# : #""view_count":\#(views),"#)
        append(#""is_top":\#(random.next() % 8 == 0 ? 1 : 0),"#)
        append(random.next() % 3 == 0 ? #""cover_url":null,"# : #""cover_url":"https://img.example.com/covers/\#(id).jpg","#)
        if random.next() % 6 == 0 {
            append(#""tags":null,"#)
        } else {
            let count = Int(random.next() % 4)
            let chosen = (0..<count).map { _ in "\"" + tags[Int(random.next() % UInt64(tags.count))] + "\"" }
            append(#""tags":[\#(chosen.joined(separator: ","))],"#)
        }
        let user = Int(random.next() % 90_000) + 10_000
        let followers = random.next() % 10 == 0 ? #""\#(1 + random.next() % 99)k""# : "\(random.next() % 50_000)"
        append(
            #""author":{"user_id":\#(user),"nick_name":"\#(sentence(2))","avatar_url":"https://img.example.com/avatars/\#(user).png","followers":\#(followers)}}"#
        )
    }
}

/// A generated payload's list: `count` elements, comma-separated, between `open` and `close`.
enum GeneratedList {
    /// The bytes, with room reserved for about `bytesEach` bytes an element; `element(index, &out)`
    /// appends each element.
    static func make<Bytes: RangeReplaceableCollection>(
        _ count: Int, between open: String, and close: String, bytesEach: Int, element: (Int, inout Bytes) -> Void
    ) -> Bytes where Bytes.Element == UInt8 {
        var out = Bytes()
        out.reserveCapacity(count * bytesEach + open.utf8.count + close.utf8.count)
        out.append(contentsOf: open.utf8)
        for index in 0..<count {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            element(index, &out)
        }
        out.append(contentsOf: close.utf8)
        return out
    }
}

/// A tiny fixed-seed generator (SplitMix64), so the payload never depends on the platform's RNG.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
