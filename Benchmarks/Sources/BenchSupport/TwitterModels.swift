import KilnModel

// twitter.json (shared benchdata) as a Kiln user writes it: the members an app shows, as
// `@DataModel` types; string ids read as numbers, nulls and absences become defaults.

/// A search response: statuses and the search's metadata.
@DataModel
public struct TwitterPage: Equatable, Sendable {
    public var statuses: [Status] = []
    public var searchMetadata = SearchMetadata()
}

/// What the search was.
@DataModel
public struct SearchMetadata: Equatable, Sendable {
    public var completedIn: Double = 0
    public var maxId: Int64 = 0
    public var count = 0
    public var query = "--"
    /// Sent as a string of digits.
    public var sinceIdStr = 0
}

/// One tweet; `placeName` comes from inside `place`, which is usually null.
@DataModel
public struct Status: Equatable, Sendable {
    public var id: Int64 = 0
    /// Sent as a string of digits.
    public var idStr: Int64 = 0
    public var createdAt = "--"
    public var text = "--"
    public var truncated = false
    public var inReplyToStatusId: Int64?
    public var inReplyToScreenName: String?
    public var user = TwitterUser()
    public var retweetCount = 0
    public var favoriteCount = 0
    public var entities = Entities()
    public var favorited = false
    public var lang = "--"
    @Key("place.full_name") public var placeName = "--"
    public var possiblySensitive = false
}

/// A status's author.
@DataModel
public struct TwitterUser: Equatable, Sendable {
    public var id: Int64 = 0
    public var name = "--"
    public var screenName = "--"
    public var url: String?
    public var description = ""
    public var followersCount = 0
    public var friendsCount = 0
    public var utcOffset = 0
    public var timeZone = "--"
    public var verified = false
    public var lang = "--"
}

/// The hashtags, links and mentions in a status.
@DataModel
public struct Entities: Equatable, Sendable {
    public var hashtags: [Hashtag] = []
    public var urls: [URLEntity] = []
    public var userMentions: [Mention] = []
}

/// A hashtag and where it sits in the text.
@DataModel
public struct Hashtag: Equatable, Sendable {
    public var text = "--"
    public var indices: [Int] = []
}

/// A link and where it sits in the text.
@DataModel
public struct URLEntity: Equatable, Sendable {
    public var url = ""
    public var expandedUrl = ""
    public var displayUrl = ""
    public var indices: [Int] = []
}

/// A mentioned user and where the mention sits in the text.
@DataModel
public struct Mention: Equatable, Sendable {
    public var screenName = "--"
    public var name = "--"
    public var id: Int64 = 0
    /// Sent as a string of digits.
    public var idStr: Int64 = 0
    public var indices: [Int] = []
}
