import Foundation
import KilnModel

// twitter.json (simdjson's copy): the fields an app's timeline reads.

struct StrictTimeline: Codable { let statuses: [StrictStatus]; let search_metadata: StrictSearchMetadata }
struct StrictSearchMetadata: Codable { let max_id: Int; let count: Int; let query: String }
struct StrictStatus: Codable {
    let id: Int
    let id_str: String
    let text: String
    let created_at: String
    let retweet_count: Int
    let favorite_count: Int
    let favorited: Bool
    let lang: String
    let in_reply_to_screen_name: String?
    let user: StrictUser
    let entities: StrictEntities
}
struct StrictUser: Codable {
    let id: Int
    let name: String
    let screen_name: String
    let description: String
    let followers_count: Int
    let friends_count: Int
    let verified: Bool
    let profile_image_url: String
}
struct StrictEntities: Codable { let hashtags: [StrictHashtag]; let urls: [StrictURL] }
struct StrictHashtag: Codable { let text: String; let indices: [Int] }
struct StrictURL: Codable { let url: String; let expanded_url: String; let indices: [Int] }

@DataModel struct Timeline { var statuses: [Status]; var searchMetadata: SearchMetadata }
@DataModel struct SearchMetadata { var maxID = 0; var count = 0; var query = "" }
@DataModel struct Status {
    var id = 0
    @Key("id_str") var idString = ""
    var text = ""
    var createdAt = ""
    var retweetCount = 0
    var favoriteCount = 0
    var favorited = false
    var lang = ""
    var inReplyToScreenName: String?
    var user: User
    var entities: Entities
}
@DataModel struct User {
    var id = 0
    var name = ""
    var screenName = ""
    var description = ""
    var followersCount = 0
    var friendsCount = 0
    var verified = false
    var profileImageURL = ""
}
@DataModel struct Entities { var hashtags: [Hashtag]; var urls: [LinkEntity] }
@DataModel struct Hashtag { var text = ""; var indices: [Int] }
@DataModel struct LinkEntity { var url = ""; var expandedURL = ""; var indices: [Int] }
