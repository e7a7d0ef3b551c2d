import Foundation
import KilnModel

// The generated issue list as a Kiln user writes it: URLs, dates and enums typed, the dates read
// by a transform as `kiln generate` writes them.

/// An issue of a repository.
@DataModel
public struct RepoIssue: Equatable, Sendable {
    public var id = 0
    public var number = 0
    public var title = ""
    public var url: URL?
    public var htmlUrl: URL?
    public var user = IssueUser()
    public var labels: [IssueLabel] = []
    public var state = IssueState.unknown
    public var locked = false
    public var comments = 0
    @Transform(.iso8601) public var createdAt: Date?
    @Transform(.iso8601) public var updatedAt: Date?
    @Transform(.iso8601) public var closedAt: Date?
    public var authorAssociation = AuthorAssociation.none
    public var body: String?
}

/// An issue's author.
@DataModel
public struct IssueUser: Equatable, Sendable {
    public var login = ""
    public var id = 0
    public var avatarUrl: URL?
    public var type = AccountType.user
    public var siteAdmin = false
}

/// A label on an issue.
@DataModel
public struct IssueLabel: Equatable, Sendable {
    public var id = 0
    public var name = ""
    public var color = ""
    public var `default` = false
}

/// Whether an issue is open.
public enum IssueState: String, FallbackEnum, Sendable {
    case open, closed, unknown
    public static let fallback = IssueState.unknown
}

/// What the author is to the repository.
public enum AuthorAssociation: String, FallbackEnum, Sendable {
    case owner = "OWNER", member = "MEMBER", collaborator = "COLLABORATOR", contributor = "CONTRIBUTOR"
    case firstTimeContributor = "FIRST_TIME_CONTRIBUTOR", none = "NONE"
    public static let fallback = AuthorAssociation.none
}

/// A user or a bot.
public enum AccountType: String, FallbackEnum, Sendable {
    case user = "User", bot = "Bot", organization = "Organization"
    public static let fallback = AccountType.user
}

// The same list as a team writes it for Foundation's `JSONDecoder` (`.iso8601` dates,
// `.convertFromSnakeCase` keys): strict `Codable`, optionals where the API sends null.

/// An issue, strictly.
public struct StrictIssue: Codable, Equatable, Sendable {
    public var id: Int
    public var number: Int
    public var title: String
    public var url: URL
    public var htmlUrl: URL
    public var user: StrictIssueUser
    public var labels: [StrictIssueLabel]
    public var state: StrictIssueState
    public var locked: Bool
    public var comments: Int
    public var createdAt: Date
    public var updatedAt: Date
    public var closedAt: Date?
    public var authorAssociation: AuthorAssociation
    public var body: String?
}

/// An issue's author, strictly.
public struct StrictIssueUser: Codable, Equatable, Sendable {
    public var login: String
    public var id: Int
    public var avatarUrl: URL
    public var type: String
    public var siteAdmin: Bool
}

/// A label, strictly.
public struct StrictIssueLabel: Codable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public var color: String
    public var `default`: Bool
}

extension StrictIssue {
    /// Foundation's decoder set as a team using `Codable` sets it for this API: ISO 8601 dates,
    /// snake_case keys.
    public static func foundationDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// `KilnDecoder` with the same strategies.
    public static var kilnDecoder: KilnDecoder {
        var decoder = KilnDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

/// Whether an issue is open, strictly.
public enum StrictIssueState: String, Codable, Sendable {
    case open, closed
}
