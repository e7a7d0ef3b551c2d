import Foundation
import Testing
@_spi(Testing) @testable import KilnModel

/// Intents a model can state beyond "tolerate what comes": empty means default, a model inside a
/// JSON string, several spellings of an enum case, one tagged object, lossy transformed lists,
/// non-finite floats as strings, a post-decode hook, and unknown enum values in optionals. Each
/// goes through Foundation's decoder, Kiln's fast path and Kiln's `Decoder` path, with equal
/// values and equal repair logs.
@Suite("Model intents through both decoders")
struct ModelIntentTests {
    /// Decodes `T` three ways and checks the values and repair logs agree; returns Kiln's.
    static func decodeAllWays<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, policy: DecodingPolicy = DecodingPolicy(),
        configure: (inout KilnDecoder, JSONDecoder) -> Void = { _, _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (value: T, repairs: [Repair]) {
        let data = Data(text.utf8)
        let foundation = JSONDecoder()
        var fast = KilnDecoder(policy: policy)
        configure(&fast, foundation)
        var generic = fast
        generic.usesFastPath = false
        let viaFoundation = try foundation.decodeWithRepairs(T.self, from: data, policy: policy)
        let viaFast = try fast.decodeWithRepairs(T.self, from: data)
        let viaGeneric = try generic.decodeWithRepairs(T.self, from: data)
        #expect(viaFast.value == viaFoundation.value, sourceLocation: sourceLocation)
        #expect(viaGeneric.value == viaFoundation.value, sourceLocation: sourceLocation)
        #expect(viaFast.repairs == viaFoundation.repairs, sourceLocation: sourceLocation)
        #expect(viaGeneric.repairs == viaFoundation.repairs, sourceLocation: sourceLocation)
        return viaFast
    }

    // MARK: Empty means default

    @DataModel
    struct Profile: Equatable {
        @DefaultIfEmpty var title = "Untitled"
        @DefaultIfEmpty var tags: [String] = ["general"]
        @DefaultIfEmpty @Key("nick_name") var nickname: String?
        @DefaultIfEmpty var links: [String: String] = ["home": "/"]
        var bio = "none" // no intent: an empty string is a string
    }

    @Test func emptyValuesTakeTheDefaultWhenDeclared() throws {
        let (profile, repairs) = try Self.decodeAllWays(
            Profile.self, #"{"title": "", "tags": [], "nick_name": "", "links": {}, "bio": ""}"#)
        #expect(profile == Profile(title: "Untitled", tags: ["general"], nickname: nil, links: ["home": "/"], bio: ""))
        #expect(
            repairs.map(\.description) == [
                #"title: expected String, found "" → "Untitled""#,
                "tags: expected [String], found [] → [\"general\"]",
                #"nick_name: expected String?, found "" → nil"#,
                "links: expected [String: String], found {} → [\"home\": \"/\"]",
            ])
        #expect(repairs.allSatisfy { $0.kind == .invalid })
    }

    @Test func nonEmptyValuesAreKeptAndNotLogged() throws {
        let (profile, repairs) = try Self.decodeAllWays(
            Profile.self, #"{"title": "Hi", "tags": ["a"], "nick_name": "neo", "links": {"x": "y"}}"#)
        #expect(profile == Profile(title: "Hi", tags: ["a"], nickname: "neo", links: ["x": "y"]))
        #expect(repairs.map(\.path) == ["bio"])
    }

    // MARK: Keys taken literally

    @DataModel
    struct OddKeys: Equatable {
        @Key(literal: "user.name") var userName = ""
        @Key(literal: "") var unnamed: String?
        @Key(literal: "a[0]") var bracket = 0
        @Key(literal: "say \"hi\"\\") var quoted = ""
        var `inout` = 1
    }

    @Test func literalKeysMayHoldDotsBracketsQuotesOrNothing() throws {
        let text = #"{"user.name": "x", "user": {"name": "a path would read this"}, "": "e", "a[0]": 3, "say \"hi\"\\": "q", "inout": 2}"#
        let (value, repairs) = try Self.decodeAllWays(OddKeys.self, text)
        let expected = OddKeys(userName: "x", unnamed: "e", bracket: 3, quoted: "q", `inout`: 2)
        #expect(value == expected)
        #expect(repairs.isEmpty, "\(repairs)")
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]
        #expect(Set(written?.keys.map { $0 } ?? []) == ["user.name", "", "a[0]", #"say "hi"\"#, "inout"])
        #expect(written?["user.name"] as? String == "x")
    }

    // MARK: Collections inside collections

    @DataModel
    struct Table: Equatable {
        var rows: [[String?]] = []
        var scores: [String: [Int]] = [:]
    }

    @Test func aCollectionInsideACollectionIsLossyToo() throws {
        let text = #"{"rows": [[1, "a", null], "x", [true, {}]], "scores": {"a": [1, "2", "x"], "b": 3}}"#
        let (table, repairs) = try Self.decodeAllWays(Table.self, text)
        #expect(table == Table(rows: [["1", "a", nil], ["true"]], scores: ["a": [1, 2]]))
        #expect(
            Set(repairs.map(\.description)) == [
                #"rows[0][0]: expected String?, found 1 → "1""#,
                #"rows[1]: expected [String?], found "x" → dropped"#,
                #"rows[2][0]: expected String?, found true → "true""#,
                "rows[2][1]: expected String?, found {} → dropped",
                #"scores.a[1]: expected Int, found "2" → 2"#,
                #"scores.a[2]: expected Int, found "x" → dropped"#,
                "scores.b: expected [Int], found 3 → dropped",
            ])
    }

    // MARK: A model inside a JSON string

    @DataModel
    struct Settings: Equatable {
        var theme = "light"
        var fontSize = 12
    }

    @DataModel
    struct Account: Equatable {
        var name = ""
        @Transform(.embeddedJSON(Settings.self)) var settings: Settings = Settings()
        @Transform(.embeddedJSON([Int].self)) var favourites: [Int] = []
    }

    @Test func aJSONStringDecodesIntoANestedModelWithItsRepairsInTheOuterLog() throws {
        let text = #"{"name": "a", "settings": "{\"theme\": \"dark\", \"fontSize\": \"14\"}", "favourites": "[1, \"2\", null]"}"#
        let (account, repairs) = try Self.decodeAllWays(Account.self, text)
        #expect(account == Account(name: "a", settings: Settings(theme: "dark", fontSize: 14), favourites: [1, 2]))
        #expect(
            repairs.map(\.description) == [
                #"settings.fontSize: expected Int, found "14" → 14"#,
                #"favourites[1]: expected Int, found "2" → 2"#,
                "favourites[2]: expected Int, found null → dropped",
            ])
    }

    @Test func anEmbeddedModelSentAsAnObjectOrAsBadTextIsHandled() throws {
        let asObject = try Self.decodeAllWays(Account.self, #"{"settings": {"theme": "dark"}}"#)
        #expect(asObject.value.settings == Settings(theme: "dark", fontSize: 12))
        #expect(asObject.repairs.map(\.path).contains("settings.fontSize"))

        let broken = try Self.decodeAllWays(Account.self, #"{"settings": "{not json", "favourites": "[1]"}"#)
        #expect(broken.value.settings == Settings())
        #expect(broken.repairs.contains { $0.path == "settings" && $0.kind == .invalid && $0.found == #""{not json""# })
    }

    @Test func anEmbeddedModelEncodesBackIntoAString() throws {
        let account = Account(name: "a", settings: Settings(theme: "dark", fontSize: 14), favourites: [3])
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(account)) as? [String: Any]
        #expect(encoded?["settings"] as? String == #"{"fontSize":14,"theme":"dark"}"#)
        #expect(encoded?["favourites"] as? String == "[3]")
        let again = try KilnDecoder().decode(Account.self, from: JSONEncoder().encode(account))
        #expect(again == account)
    }

    // MARK: Several raw values, or ranges, for one case

    enum Method: String, FallbackEnum {
        case get = "GET", post = "POST", other
        static let fallback = Method.other
        static func matching(_ raw: String) -> Method? { Method(rawValue: raw.uppercased()) }
    }

    enum Outcome: Int, FallbackEnum {
        case success = 200, redirect = 300, clientError = 400, serverError = 500, unknown = 0
        static let fallback = Outcome.unknown
        static func matching(_ code: Int) -> Outcome? {
            switch code {
            case 200..<300: .success
            case 300..<400: .redirect
            case 400..<500: .clientError
            case 500..<600: .serverError
            default: nil
            }
        }
    }

    @DataModel
    struct Call: Equatable {
        var method: Method = .other
        var outcome: Outcome = .unknown
        var history: [Outcome] = []
    }

    @Test func enumCasesMatchOtherSpellingsAndRanges() throws {
        let (call, repairs) = try Self.decodeAllWays(
            Call.self, #"{"method": "get", "outcome": 204, "history": [301, "404", 200, 99, 503]}"#)
        #expect(call == Call(method: .get, outcome: .success, history: [.redirect, .clientError, .success, .unknown, .serverError]))
        #expect(
            repairs.map(\.description) == [
                #"history[1]: expected Outcome, found "404" → clientError"#,
                "history[3]: expected Outcome, found 99 → unknown",
            ])
        #expect(repairs.map(\.kind) == [.coerced, .fallback])

        let other = try Self.decodeAllWays(Call.self, #"{"method": "PATCH", "outcome": "200"}"#)
        #expect(other.value.method == .other && other.value.outcome == .success)
    }

    /// `KilnDecoder` reads a known raw value straight from the document; whatever it reads so
    /// must be what the enum's `init(from:)` reads, escapes and all, and every other value goes
    /// on to `init(from:)`, with its repairs.
    @Test func enumCasesReadFromTheDocumentAreTheCasesInitFromReads() throws {
        let (call, repairs) = try Self.decodeAllWays(
            Call.self, #"{"method": "G\u0045T", "outcome": 500, "history": [200, 1e2, "204", 9223372036854775807, -300, true, null]}"#)
        #expect(call.method == .get && call.outcome == .serverError)
        #expect(call.history.first == .success && call.history.count == 7)
        #expect(repairs.count >= 4)
        let spelled = try Self.decodeAllWays(Call.self, #"{"method": "post", "outcome": 404}"#)
        #expect(spelled.value.method == .post && spelled.value.outcome == .clientError)
        #expect(spelled.repairs.allSatisfy { $0.path == "history" })
    }

    // MARK: Transformed properties read by their keys

    @DataModel
    struct Stamped: Equatable {
        @Transform(.iso8601) var createdAt: Date?
        @Transform(.unixSeconds) var seenAt = Date(timeIntervalSince1970: 0)
        @Key("link", "url") @Transform(.url) var link: URL?
        @Transform(.iso8601) var editedAt: Date? = Date(timeIntervalSince1970: 1)
    }

    /// A transformed property is found by its keys as any other property is (the Swift name,
    /// its snake_case twin, `@Key`'s alternate; `null` read as absent), with the same values
    /// and repairs through every decoder.
    @Test(arguments: [
        #"{"created_at": "2016-10-10T08:30:00Z", "seen_at": 1476088200, "url": "https://example.com/a"}"#,
        #"{"createdAt": null, "created_at": "2016-10-10T08:30:00+02:00", "seenAt": "1476088200", "link": null, "url": " https://x.io "}"#,
        #"{"createdAt": "yesterday", "seen_at": "soon", "link": "", "edited_at": null}"#,
        #"{"createdAt": 5, "seenAt": null, "link": 7, "editedAt": "2016-10-10T08:30:00.000Z"}"#,
        #"{}"#,
    ])
    func transformedPropertiesReadByTheirKeys(text: String) throws {
        _ = try Self.decodeAllWays(Stamped.self, text)
    }

    @Test func transformedPropertiesReadTheirValues() throws {
        let (value, repairs) = try Self.decodeAllWays(
            Stamped.self, #"{"created_at": "2016-10-10T08:30:00Z", "seen_at": "later", "link": null, "url": "https://example.com/a"}"#)
        #expect(value.createdAt == Date(timeIntervalSince1970: 1_476_088_200))
        #expect(value.seenAt == Date(timeIntervalSince1970: 0))
        #expect(value.link?.absoluteString == "https://example.com/a")
        #expect(value.editedAt == Date(timeIntervalSince1970: 1))
        #expect(repairs.map(\.path) == ["seenAt", "editedAt"])
    }

    // MARK: Unknown enum values in optionals

    @DataModel
    struct Ticket: Equatable {
        var status: Outcome?
        var previous: Outcome? = .success
        var trail: [Outcome] = []
    }

    @Test func anUnknownValueInAnOptionalIsTheFallbackCaseByDefault() throws {
        let (ticket, repairs) = try Self.decodeAllWays(Ticket.self, #"{"status": 42, "previous": 7, "trail": [1]}"#)
        #expect(ticket == Ticket(status: .unknown, previous: .unknown, trail: [.unknown]))
        #expect(repairs.allSatisfy { $0.kind == .fallback })
    }

    @Test func thePolicyCanMakeAnUnknownValueInAnOptionalNil() throws {
        var policy = DecodingPolicy()
        policy.unknownEnumValueInOptionalIsNil = true
        let (ticket, repairs) = try Self.decodeAllWays(
            Ticket.self, #"{"status": 42, "previous": 7, "trail": [1, 250]}"#, policy: policy)
        // nil, or the property's initial value; array elements keep the fallback case.
        #expect(ticket == Ticket(status: nil, previous: .success, trail: [.unknown, .success]))
        #expect(
            repairs.map(\.description) == [
                "status: expected Outcome?, found 42 → nil",
                "previous: expected Outcome?, found 7 → success",
                "trail[0]: expected Outcome, found 1 → unknown",
            ])
        // Known values, coerced ones and absence are unaffected.
        let known = try Self.decodeAllWays(Ticket.self, #"{"status": "404"}"#, policy: policy)
        #expect(known.value.status == .clientError && known.value.previous == .success)
    }

    // MARK: One tagged object

    protocol Attachment: Sendable {
        var kind: String { get }
    }

    @DataModel
    struct ImageAttachment: Attachment, Equatable {
        var kind = ""
        var url = ""
        var width = 0
    }

    @DataModel
    struct PollAttachment: Attachment, Equatable {
        var kind = ""
        var question = ""
    }

    enum Attachments: ModelFamily {
        static let registry: ModelRegistry<any Attachment> = {
            var registry = ModelRegistry<any Attachment>(discriminator: "kind")
            registry.register("image", as: ImageAttachment.self)
            registry.register("poll", as: PollAttachment.self)
            return registry
        }()
    }

    @DataModel
    struct Message: Equatable {
        var text = ""
        var attachment: OneOf<Attachments>?
        var extras: [OneOf<Attachments>] = []

        static func == (lhs: Message, rhs: Message) -> Bool {
            lhs.text == rhs.text && lhs.attachment.map(describe) == rhs.attachment.map(describe)
                && lhs.extras.map(describe) == rhs.extras.map(describe)
        }

        static func describe(_ one: OneOf<Attachments>) -> String { String(describing: one.value) }
    }

    @Test func aSingleTaggedObjectDecodesAsItsRegisteredType() throws {
        let data = Data(#"{"data": {"kind": "image", "url": "a.png", "width": "640"}}"#.utf8)
        let (item, repairs) = try Attachments.registry.decode(from: data, at: "data")
        #expect(item as? ImageAttachment == ImageAttachment(kind: "image", url: "a.png", width: 640))
        #expect(repairs.map(\.description) == [#"data.width: expected Int, found "640" → 640"#])

        #expect(throws: ModelDecodingError.self) {
            try Attachments.registry.decode(from: Data(#"{"kind": "video"}"#.utf8))
        }
        #expect(throws: ModelDecodingError.pathNotFound(path: "data")) {
            try Attachments.registry.decode(from: Data(#"{"data": null}"#.utf8), at: "data")
        }
        // The kind named once in the document.
        var byDocument = ModelRegistry<any Attachment>(discriminator: "kind", location: .document("meta.kind"))
        byDocument.register("poll", as: PollAttachment.self)
        let poll = try byDocument.decode(from: Data(#"{"meta": {"kind": "poll"}, "item": {"question": "why?"}}"#.utf8), at: "item")
        #expect(poll.item as? PollAttachment == PollAttachment(kind: "", question: "why?"))
        do {
            _ = try Attachments.registry.decode(from: Data(#"{"kind": "video"}"#.utf8))
        } catch {
            #expect("\(error)".contains("video"), "\(error)")
        }
    }

    @Test func oneOfPropertiesDecodeThroughTheFamilysRegistry() throws {
        let text = #"""
            {"text": "hi", "attachment": {"kind": "poll", "question": "tea?"},
             "extras": [{"kind": "image", "url": "b.png"}, {"kind": "video"}, {"kind": "poll", "question": 3}]}
            """#
        let (message, repairs) = try Self.decodeAllWays(Message.self, text)
        #expect(message.attachment?.value as? PollAttachment == PollAttachment(kind: "poll", question: "tea?"))
        #expect(message.extras.count == 2)
        #expect(message.extras.first?.value as? ImageAttachment == ImageAttachment(kind: "image", url: "b.png"))
        #expect(message.extras.last?.value as? PollAttachment == PollAttachment(kind: "poll", question: "3"))
        #expect(repairs.contains { $0.path == "extras[1]" && $0.kind == .dropped })

        let unknown = try Self.decodeAllWays(Message.self, #"{"attachment": {"kind": "video"}}"#)
        #expect(unknown.value.attachment == nil)
        #expect(unknown.repairs.map(\.path) == ["text", "attachment", "extras"])
        #expect(unknown.repairs[1].kind == .invalid)
    }

    // MARK: Lossy lists through a transform

    @DataModel
    struct Schedule: Equatable {
        @Transform(.each(.iso8601)) var reminders: [Date] = []
        @Transform(.each(.unixSeconds)) var checkIns: [Date]?
        @Transform(.commaSeparated) var labels: [String] = []
    }

    @Test func aTransformedListDropsWhatItCannotReadAndLogsIt() throws {
        let text = #"{"reminders": ["2024-05-01T09:00:00Z", "soon", null, "2024-05-02T09:00:00Z"], "checkIns": [1714554000, "x"], "labels": ["a", {}, 3]}"#
        let (schedule, repairs) = try Self.decodeAllWays(Schedule.self, text)
        #expect(schedule.reminders == [Date(timeIntervalSince1970: 1_714_554_000), Date(timeIntervalSince1970: 1_714_640_400)])
        #expect(schedule.checkIns == [Date(timeIntervalSince1970: 1_714_554_000)])
        #expect(schedule.labels == ["a", "3"])
        #expect(
            repairs.map(\.description) == [
                #"reminders[1]: expected Date, found "soon" → dropped"#,
                "reminders[2]: expected Date, found null → dropped",
                #"checkIns[1]: expected Date, found "x" → dropped"#,
                "labels[1]: expected String, found {} → dropped",
            ])
        #expect(repairs.allSatisfy { $0.kind == .dropped })
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(schedule)) as? [String: Any]
        #expect(encoded?["reminders"] as? [String] == ["2024-05-01T09:00:00Z", "2024-05-02T09:00:00Z"])
    }

    @Test func aCleanTransformedListHasNoRepairs() throws {
        let (schedule, repairs) = try Self.decodeAllWays(
            Schedule.self, #"{"reminders": ["2024-05-01T09:00:00Z"], "checkIns": [], "labels": "a, b"}"#)
        #expect(schedule.reminders.count == 1 && schedule.checkIns == [] && schedule.labels == ["a", "b"])
        #expect(repairs.isEmpty)
    }

    // MARK: Non-finite numbers written as strings

    @DataModel
    struct Reading: Equatable {
        var value = 0.0
        var values: [Double] = []
        static func == (lhs: Reading, rhs: Reading) -> Bool {
            func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
            return same(lhs.value, rhs.value) && lhs.values.count == rhs.values.count && zip(lhs.values, rhs.values).allSatisfy(same)
        }
    }

    @Test func infinityAndNaNWrittenAsStringsReadThroughTheFloatStrategy() throws {
        let text = #"{"value": "-Infinity", "values": ["Infinity", "NaN", 1.5, "inf"]}"#
        let strategy = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let (reading, repairs) = try Self.decodeAllWays(Reading.self, text) { kiln, foundation in
            kiln.nonConformingFloatDecodingStrategy = strategy
            foundation.nonConformingFloatDecodingStrategy = strategy
        }
        #expect(reading.value == -.infinity)
        #expect(reading.values.count == 3 && reading.values[0] == .infinity && reading.values[1].isNaN && reading.values[2] == 1.5)
        #expect(repairs.map(\.description) == [#"values[3]: expected Double, found "inf" → dropped"#])

        // Without the strategy the strings are not numbers: the rows of the coercion table.
        let (plain, plainRepairs) = try Self.decodeAllWays(Reading.self, text)
        #expect(plain.value == 0 && plain.values == [1.5])
        #expect(plainRepairs.count == 4)
    }

    // MARK: didDecode

    @DataModel
    struct Discount: Equatable {
        var percent = 0
        var label = ""

        mutating func didDecode(_ repairs: RepairRecorder) {
            if !(0...100).contains(percent) {
                repairs.record(property: "percent", expected: "0...100", found: "\(percent)", result: "0")
                percent = 0
            }
            if label.isEmpty { label = "\(percent)% off" }
        }
    }

    @DataModel
    struct Basket: Equatable {
        var discounts: [Discount] = []
        var main: Discount = Discount()
        var total = 0.0
        var totalText = ""

        mutating func didDecode() {
            totalText = String(format: "%.2f", total)
        }
    }

    @Test func publicModelReadIntoAMadeValueDecodesAsTheOtherPaths() throws {
        let text = #"{"number": "12", "note": null, "lines": ["a", 2, "c"], "discount": {"percent": 250}, "total": "9.5", "extra": true}"#
        let (receipt, repairs) = try Self.decodeAllWays(Receipt.self, text)
        #expect(receipt.number == 12 && receipt.customer == "--" && receipt.note == nil)
        #expect(receipt.discount == ReceiptDiscount(percent: 250, label: "none"))
        #expect(receipt.total == 9.5 && receipt.totalText == "9.50")
        #expect(repairs.count >= 4)
        // Decoded twice in one decode (a list), each element starts from its own `init()`.
        let (list, _) = try Self.decodeAllWays([Receipt].self, #"[{"customer": "ann", "total": 1}, {"number": 3}]"#)
        #expect(list.map(\.customer) == ["ann", "--"] && list.map(\.number) == [0, 3] && list.map(\.totalText) == ["1.00", "0.00"])
    }

    @Test func didDecodeDerivesAndValidatesFieldsAndLogsUnderTheModelsPath() throws {
        let text = #"{"discounts": [{"percent": 10}, {"percent": 250, "label": "huge"}], "main": {"percent": "5", "label": "five"}, "total": 9.5}"#
        let (basket, repairs) = try Self.decodeAllWays(Basket.self, text)
        #expect(basket.discounts == [Discount(percent: 10, label: "10% off"), Discount(percent: 0, label: "huge")])
        #expect(basket.main == Discount(percent: 5, label: "five"))
        #expect(basket.totalText == "9.50")
        #expect(
            repairs.map(\.description) == [
                "discounts[0].label: expected String, found missing → \"\"",
                "discounts[1].percent: expected 0...100, found 250 → 0",
                #"main.percent: expected Int, found "5" → 5"#,
                "totalText: expected String, found missing → \"\"",
            ])
        // init() and the memberwise initializer do not run the hook.
        #expect(Discount().label == "" && Discount(percent: 500).percent == 500)
    }
}

/// Public, with five properties or more: its `init(kiln:)` makes the model with `init()` and reads
/// into it (see `DataModelMacro.readsIntoMadeValue`). Values, repairs and the hook are those of
/// the other paths.
@DataModel
public struct Receipt: Equatable {
    var number = 0
    var customer = "--"
    var note: String?
    var lines: [String] = []
    var discount = ReceiptDiscount()
    var total = 0.0
    var totalText = ""

    mutating func didDecode() {
        totalText = String(format: "%.2f", total)
    }
}

/// A public model nested in ``Receipt``.
@DataModel
public struct ReceiptDiscount: Equatable {
    var percent = 0
    var label = "none"
}
