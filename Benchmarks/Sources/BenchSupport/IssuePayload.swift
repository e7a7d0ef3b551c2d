/// The generated issue list of the decode benchmark: a ~4 MB page of a REST API's issues, shaped
/// as GitHub's are — the types app models hold beyond strings and numbers: URLs, ISO 8601 dates,
/// and raw-value enums (`"open"`, `"COLLABORATOR"`), with nulls where the API sends them and, in
/// one issue in fifty, an author association the app's enum does not know.
///
/// Built from a fixed seed, so every run and every test reads the same bytes.
public enum IssuePayload {
    /// The payload as any byte collection (`Data`, `[UInt8]`).
    public static func make<Bytes: RangeReplaceableCollection>(
        as type: Bytes.Type, issues count: Int = 5_000, seed: UInt64 = 0x1557_0E5A_11CE_0001
    )
        -> Bytes where Bytes.Element == UInt8
    {
        var random = SplitMix64(seed: seed)
        return GeneratedList.make(count, between: "[", and: "]", bytesEach: 900) { index, out in
            writeIssue(number: 1 + index, random: &random, to: &out)
        }
    }

    static let logins = ["octocat", "hubot", "monalisa", "defunkt", "mojombo", "pjhyett", "wycats", "technoweenie"]
    static let labels = [("bug", "d73a4a"), ("enhancement", "a2eeef"), ("documentation", "0075ca"), ("good first issue", "7057ff"), ("question", "d876e3")]
    static let associations = ["OWNER", "MEMBER", "COLLABORATOR", "CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "NONE"]
    static let words = ["cache", "crash", "decode", "list", "page", "network", "timeout", "layout", "dark mode", "retry", "upload", "SQLite"]

    static func date(_ random: inout SplitMix64) -> String {
        let month = 1 + Int(random.next() % 12)
        let day = 1 + Int(random.next() % 28)
        let hour = Int(random.next() % 24)
        let minute = Int(random.next() % 60)
        let second = Int(random.next() % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "20\(two(15 + Int(random.next() % 10)))-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }

    static func writeIssue<Bytes: RangeReplaceableCollection>(number: Int, random: inout SplitMix64, to out: inout Bytes) where Bytes.Element == UInt8 {
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        let login = logins[Int(random.next() % UInt64(logins.count))]
        let userID = 1 + Int(random.next() % 9_000_000)
        let id = 100_000_000 + number * 7
        let title = (0..<(3 + Int(random.next() % 5))).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
        let closed = random.next() % 3 == 0
        let repo = "https://api.github.com/repos/kiln/kiln"
        append(#"{"url":"\#(repo)/issues/\#(number)","repository_url":"\#(repo)","html_url":"https://github.com/kiln/kiln/issues/\#(number)","#)
        append(#""id":\#(id),"node_id":"I_kwDOA\#(id)","number":\#(number),"title":"\#(title)","#)
        append(#""user":{"login":"\#(login)","id":\#(userID),"avatar_url":"https://avatars.githubusercontent.com/u/\#(userID)?v=4","#)
        append(#""html_url":"https://github.com/\#(login)","type":"\#(random.next() % 20 == 0 ? "Bot" : "User")","site_admin":false},"#)
        let labelCount = Int(random.next() % 3)
        let chosen = (0..<labelCount).map { _ -> String in
            let (name, color) = labels[Int(random.next() % UInt64(labels.count))]
            return #"{"id":\#(200_000 + name.count),"name":"\#(name)","color":"\#(color)","default":\#(name == "bug")}"#
        }
        append(#""labels":[\#(chosen.joined(separator: ","))],"state":"\#(closed ? "closed" : "open")","locked":\#(random.next() % 10 == 0),"#)
        append(#""comments":\#(random.next() % 40),"created_at":"\#(date(&random))","updated_at":"\#(date(&random))","#)
        append(closed ? #""closed_at":"\#(date(&random))","# : #""closed_at":null,"#)
        // "MANNEQUIN", which GitHub added later than the app's enum: the fallback case, logged.
        let association = random.next() % 50 == 0 ? "MANNEQUIN" : associations[Int(random.next() % UInt64(associations.count))]
        append(#""author_association":"\#(association)","#)
        append(random.next() % 4 == 0 ? #""body":null}"# : #""body":"Steps: open the \#(title) screen, pull to refresh."}"#)
    }
}
