// twitter.json (shared benchdata) as a team writes it for Foundation's `JSONDecoder`: strict
// `Codable` with snake_case coding keys, optionals wherever the API sends null.

/// A search response: statuses and the search's metadata.
public struct StrictTwitter: Codable, Equatable, Sendable {
    public var statuses: [StrictStatus]
    public var searchMetadata: StrictSearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

/// What the search was and where the next page is.
public struct StrictSearchMetadata: Codable, Equatable, Sendable {
    public var completedIn: Double
    public var maxId: Int64
    public var maxIdStr: String
    public var nextResults: String
    public var query: String
    public var refreshUrl: String
    public var count: Int
    public var sinceId: Int
    public var sinceIdStr: String

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in"
        case maxId = "max_id"
        case maxIdStr = "max_id_str"
        case nextResults = "next_results"
        case query
        case refreshUrl = "refresh_url"
        case count
        case sinceId = "since_id"
        case sinceIdStr = "since_id_str"
    }
}

/// One tweet.
public struct StrictStatus: Codable, Equatable, Sendable {
    public var metadata: StrictStatusMetadata
    public var createdAt: String
    public var id: Int64
    public var idStr: String
    public var text: String
    public var source: String
    public var truncated: Bool
    public var inReplyToStatusId: Int64?
    public var inReplyToStatusIdStr: String?
    public var inReplyToUserId: Int64?
    public var inReplyToUserIdStr: String?
    public var inReplyToScreenName: String?
    public var user: StrictUser
    public var retweetedStatus: StrictRetweeted?
    public var retweetCount: Int
    public var favoriteCount: Int
    public var entities: StrictEntities
    public var favorited: Bool
    public var retweeted: Bool
    public var possiblySensitive: Bool?
    public var lang: String

    enum CodingKeys: String, CodingKey {
        case metadata
        case createdAt = "created_at"
        case id
        case idStr = "id_str"
        case text
        case source
        case truncated
        case inReplyToStatusId = "in_reply_to_status_id"
        case inReplyToStatusIdStr = "in_reply_to_status_id_str"
        case inReplyToUserId = "in_reply_to_user_id"
        case inReplyToUserIdStr = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user
        case retweetedStatus = "retweeted_status"
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities
        case favorited
        case retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
    }
}

/// The tweet a status retweets.
public struct StrictRetweeted: Codable, Equatable, Sendable {
    public var id: Int64
    public var idStr: String
    public var text: String
    public var user: StrictUser
    public var retweetCount: Int
    public var entities: StrictEntities

    enum CodingKeys: String, CodingKey {
        case id
        case idStr = "id_str"
        case text
        case user
        case retweetCount = "retweet_count"
        case entities
    }
}

/// How the search found a status.
public struct StrictStatusMetadata: Codable, Equatable, Sendable {
    public var resultType: String
    public var isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
        case resultType = "result_type"
        case isoLanguageCode = "iso_language_code"
    }
}

/// A status's author.
public struct StrictUser: Codable, Equatable, Sendable {
    public var id: Int64
    public var idStr: String
    public var name: String
    public var screenName: String
    public var location: String
    public var description: String
    public var url: String?
    public var protected: Bool
    public var followersCount: Int
    public var friendsCount: Int
    public var listedCount: Int
    public var createdAt: String
    public var favouritesCount: Int
    public var utcOffset: Int?
    public var timeZone: String?
    public var geoEnabled: Bool
    public var verified: Bool
    public var statusesCount: Int
    public var lang: String
    public var profileImageUrl: String
    public var profileBackgroundColor: String
    public var defaultProfile: Bool
    public var following: Bool
    public var notifications: Bool

    enum CodingKeys: String, CodingKey {
        case id
        case idStr = "id_str"
        case name
        case screenName = "screen_name"
        case location
        case description
        case url
        case protected
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case listedCount = "listed_count"
        case createdAt = "created_at"
        case favouritesCount = "favourites_count"
        case utcOffset = "utc_offset"
        case timeZone = "time_zone"
        case geoEnabled = "geo_enabled"
        case verified
        case statusesCount = "statuses_count"
        case lang
        case profileImageUrl = "profile_image_url"
        case profileBackgroundColor = "profile_background_color"
        case defaultProfile = "default_profile"
        case following
        case notifications
    }
}

/// The hashtags, links and mentions in a status.
public struct StrictEntities: Codable, Equatable, Sendable {
    public var hashtags: [StrictHashtag]
    public var urls: [StrictURLEntity]
    public var userMentions: [StrictMention]

    enum CodingKeys: String, CodingKey {
        case hashtags
        case urls
        case userMentions = "user_mentions"
    }
}

/// A hashtag and where it sits in the text.
public struct StrictHashtag: Codable, Equatable, Sendable {
    public var text: String
    public var indices: [Int]
}

/// A link and where it sits in the text.
public struct StrictURLEntity: Codable, Equatable, Sendable {
    public var url: String
    public var expandedUrl: String
    public var displayUrl: String
    public var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url
        case expandedUrl = "expanded_url"
        case displayUrl = "display_url"
        case indices
    }
}

/// A mentioned user and where the mention sits in the text.
public struct StrictMention: Codable, Equatable, Sendable {
    public var screenName: String
    public var name: String
    public var id: Int64
    public var idStr: String
    public var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name"
        case name
        case id
        case idStr = "id_str"
        case indices
    }
}
