import KilnModel

// citm_catalog.json (shared benchdata) as a Kiln user writes it: the members an app shows, as
// `@DataModel` types; missing descriptions, names and subtitles become defaults.

/// The catalog: events by id, the performances, and the names they refer to.
@DataModel
public struct Catalog: Equatable, Sendable {
    public var areaNames: [String: String] = [:]
    public var events: [String: Event] = [:]
    public var performances: [Performance] = []
    public var topicSubTopics: [String: [Int]] = [:]
    public var venueNames: [String: String] = [:]
}

/// One event.
@DataModel
public struct Event: Equatable, Sendable {
    public var description = "--"
    public var id = 0
    public var logo: String?
    public var name = "--"
    public var subTopicIds: [Int] = []
    public var subtitle = ""
    public var topicIds: [Int] = []
}

/// One performance of an event, with its prices and seating.
@DataModel
public struct Performance: Equatable, Sendable {
    public var eventId = 0
    public var id = 0
    public var logo: String?
    public var name = "--"
    public var prices: [Price] = []
    public var seatCategories: [SeatCategory] = []
    public var start: Int64 = 0
    public var venueCode = "--"
}

/// A price for one audience in one seat category.
@DataModel
public struct Price: Equatable, Sendable {
    public var amount = 0
    public var audienceSubCategoryId = 0
    public var seatCategoryId = 0
}

/// A seat category and the areas it covers.
@DataModel
public struct SeatCategory: Equatable, Sendable {
    public var areas: [Area] = []
    public var seatCategoryId = 0
}

/// An area and its blocks.
@DataModel
public struct Area: Equatable, Sendable {
    public var areaId = 0
    public var blockIds: [Int] = []
}
