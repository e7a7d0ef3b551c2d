import BenchSupport
import Foundation
import Testing
@_spi(Testing) import KilnModel

/// Kiln's decoder against Foundation's, on the benchmark payloads: equal values on strict
/// `Codable` shapes, equal values and repair logs on the tolerant (`@DataModel`) shapes.
@Suite("KilnDecoder equivalence with JSONDecoder")
struct KilnDecoderEquivalenceTests {
    static let articles = Data(ArticlePayload.make())

    static func benchFile(_ name: String) throws -> Data {
        try Data(contentsOf: SharedData.benchdata.appendingPathComponent(name))
    }

    @Test func articlePayloadIsStableAndAboutNineMegabytes() {
        #expect(ArticlePayload.make(articles: 50) == ArticlePayload.make(articles: 50))
        #expect((8_000_000...10_000_000).contains(Self.articles.count))
    }

    @Test func strictShapesDecodeToFoundationsValues() throws {
        #expect(try KilnDecoder().decode(StrictArticlePage.self, from: Self.articles) == JSONDecoder().decode(StrictArticlePage.self, from: Self.articles))
        let twitter = try Self.benchFile("twitter.json")
        #expect(try KilnDecoder().decode(StrictTwitter.self, from: twitter) == JSONDecoder().decode(StrictTwitter.self, from: twitter))
        let catalog = try Self.benchFile("citm_catalog.json")
        #expect(try KilnDecoder().decode(StrictCatalog.self, from: catalog) == JSONDecoder().decode(StrictCatalog.self, from: catalog))
    }

    @Test func tolerantArticlesMatchFoundationWithTheSameRepairLog() throws {
        let foundation = try JSONDecoder().decodeWithRepairs(ArticlePage.self, from: Self.articles)
        let fast = try KilnDecoder().decodeWithRepairs(ArticlePage.self, from: Self.articles)
        #expect(fast.value == foundation.value)
        #expect(foundation.repairs.count > 20_000)
        #expect(fast.repairs == foundation.repairs)

        // The same models through their init(from:) on Kiln's Decoder containers.
        let generic = try KilnDecoder.decoderProtocolPath.decodeWithRepairs(ArticlePage.self, from: Self.articles)
        #expect(generic.value == foundation.value)
        #expect(generic.repairs == foundation.repairs)
    }

    @Test func tolerantListAtAKeyPathMatchesFoundation() throws {
        let foundation = try JSONDecoder().decodeWithRepairs([Article].self, from: Self.articles, at: "data.list")
        let kiln = try KilnDecoder().decodeWithRepairs([Article].self, from: Self.articles, at: "data.list")
        #expect(kiln.value == foundation.value)
        #expect(kiln.repairs == foundation.repairs)
        #expect(kiln.value.count == 20_000)
    }

    @Test func tolerantIssuesMatchFoundationWithTheSameRepairLog() throws {
        let data = IssuePayload.make(as: Data.self, issues: 2_000)
        #expect(data == IssuePayload.make(as: Data.self, issues: 2_000))
        let foundation = try JSONDecoder().decodeWithRepairs([RepoIssue].self, from: data)
        let kiln = try KilnDecoder().decodeWithRepairs([RepoIssue].self, from: data)
        #expect(kiln.value == foundation.value)
        #expect(kiln.value.count == 2_000)
        let issues: [RepoIssue] = kiln.value
        #expect(issues.allSatisfy { $0.createdAt != nil && $0.url != nil && $0.user.avatarUrl != nil && $0.state != .unknown })
        #expect(issues.contains { $0.closedAt != nil } && issues.contains { $0.closedAt == nil })
        #expect(foundation.repairs.contains { $0.kind == .fallback && $0.path.hasSuffix("author_association") })
        #expect(kiln.repairs == foundation.repairs)

        // The strict shapes, with Foundation's strategies on both decoders.
        let strictIssues = try StrictIssue.foundationDecoder().decode([StrictIssue].self, from: data)
        #expect(try StrictIssue.kilnDecoder.decode([StrictIssue].self, from: data) == strictIssues)
        let sameDatesAndLinks = zip(strictIssues, issues).allSatisfy { strict, tolerant in
            strict.createdAt == tolerant.createdAt && strict.htmlUrl == tolerant.htmlUrl
        }
        #expect(sameDatesAndLinks)
    }

    @Test func tolerantPaymentsMatchFoundationWithTheSameRepairLog() throws {
        let data = PaymentPayload.make(as: Data.self, payments: 2_000)
        #expect(data == PaymentPayload.make(as: Data.self, payments: 2_000))
        let foundation = try StrictPayment.foundationDecoder().decodeWithRepairs([Payment].self, from: data)
        let kiln = try StrictPayment.kilnDecoder.decodeWithRepairs([Payment].self, from: data)
        #expect(kiln.value == foundation.value)
        let payments: [Payment] = kiln.value
        #expect(payments.count == 2_000)
        #expect(payments.allSatisfy { $0.id != nil && $0.accountId != nil && $0.createdAt != nil && $0.amount > 0 })
        #expect(payments.contains { $0.merchant?.id != nil } && payments.contains { $0.fee != nil } && payments.contains { $0.fee == nil })
        #expect(payments.contains { $0.kind == .card } && payments.contains { $0.kind == nil })
        // `cashback`, which the app's enum does not know: a repair, through both decoders.
        #expect(foundation.repairs.contains { $0.path.hasSuffix("kind") })
        #expect(kiln.repairs == foundation.repairs)

        // The strict shapes, with Foundation's strategy on both decoders.
        let strict = try StrictPayment.foundationDecoder().decode([StrictPayment].self, from: data)
        #expect(try StrictPayment.kilnDecoder.decode([StrictPayment].self, from: data) == strict)
        let same = zip(strict, payments).allSatisfy { strict, tolerant in
            strict.id == tolerant.id && strict.amount == tolerant.amount && strict.createdAt == tolerant.createdAt
                && strict.merchant?.id == tolerant.merchant?.id
        }
        #expect(same)
    }

    @Test func tolerantTwitterMatchesFoundationWithTheSameRepairLog() throws {
        let data = try Self.benchFile("twitter.json")
        let foundation = try JSONDecoder().decodeWithRepairs(TwitterPage.self, from: data)
        let kiln = try KilnDecoder().decodeWithRepairs(TwitterPage.self, from: data)
        #expect(kiln.value == foundation.value)
        #expect(!foundation.repairs.isEmpty)
        #expect(kiln.repairs == foundation.repairs)
    }

    @Test func tolerantCatalogMatchesFoundationWithTheSameRepairLog() throws {
        let data = try Self.benchFile("citm_catalog.json")
        let foundation = try JSONDecoder().decodeWithRepairs(Catalog.self, from: data)
        let kiln = try KilnDecoder().decodeWithRepairs(Catalog.self, from: data)
        #expect(kiln.value == foundation.value)
        #expect(!foundation.repairs.isEmpty)
        // Dictionary members are visited in each decoder's own key order: compare as sets.
        #expect(Set(kiln.repairs) == Set(foundation.repairs))
        #expect(kiln.repairs.count == foundation.repairs.count)
    }
}
