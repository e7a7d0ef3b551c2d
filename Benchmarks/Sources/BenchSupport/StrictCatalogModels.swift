// citm_catalog.json (shared benchdata) as a team writes it for Foundation's `JSONDecoder`:
// strict `Codable`; the keys are camelCase already, so the synthesized coding keys fit.

/// The catalog: names by id, events by id, and the performances.
public struct StrictCatalog: Codable, Equatable, Sendable {
    public var areaNames: [String: String]
    public var audienceSubCategoryNames: [String: String]
    public var events: [String: StrictEvent]
    public var performances: [StrictPerformance]
    public var seatCategoryNames: [String: String]
    public var subTopicNames: [String: String]
    public var topicNames: [String: String]
    public var topicSubTopics: [String: [Int]]
    public var venueNames: [String: String]
}

/// One event.
public struct StrictEvent: Codable, Equatable, Sendable {
    public var description: String?
    public var id: Int
    public var logo: String?
    public var name: String
    public var subTopicIds: [Int]
    public var subjectCode: String?
    public var subtitle: String?
    public var topicIds: [Int]
}

/// One performance of an event, with its prices and seating.
public struct StrictPerformance: Codable, Equatable, Sendable {
    public var eventId: Int
    public var id: Int
    public var logo: String?
    public var name: String?
    public var prices: [StrictPrice]
    public var seatCategories: [StrictSeatCategory]
    public var seatMapImage: String?
    public var start: Int
    public var venueCode: String
}

/// A price for one audience in one seat category.
public struct StrictPrice: Codable, Equatable, Sendable {
    public var amount: Int
    public var audienceSubCategoryId: Int
    public var seatCategoryId: Int
}

/// A seat category and the areas it covers.
public struct StrictSeatCategory: Codable, Equatable, Sendable {
    public var areas: [StrictArea]
    public var seatCategoryId: Int
}

/// An area and its blocks.
public struct StrictArea: Codable, Equatable, Sendable {
    public var areaId: Int
    public var blockIds: [Int]
}
