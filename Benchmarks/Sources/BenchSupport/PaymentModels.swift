import Foundation
import KilnModel

// A page of a payments API as a Kiln user writes it by hand: ids as `UUID`, money as `Decimal`,
// dates read by the decoder's `.iso8601` strategy, and plain `Codable` enums (not
// `FallbackEnum`: a value the app does not know is a repair, and the default stays).

/// One payment of an account.
@DataModel
public struct Payment: Equatable, Sendable {
    public var id: UUID?
    public var accountId: UUID?
    public var amount: Decimal = 0
    public var fee: Decimal?
    public var currency = Currency.eur
    public var kind: PaymentKind?
    public var status = PaymentStatus.pending
    public var createdAt: Date?
    public var settledAt: Date?
    public var merchant: Merchant?
    public var tags: [String] = []
}

/// Where a card payment went.
@DataModel
public struct Merchant: Equatable, Sendable {
    public var id: UUID?
    public var name = ""
    public var category = ""
}

/// An ISO 4217 currency the app shows.
public enum Currency: String, Codable, Sendable {
    case eur = "EUR", usd = "USD", gbp = "GBP", jpy = "JPY"
}

/// How the money moved.
public enum PaymentKind: String, Codable, Sendable {
    case card, transfer, refund, fee
}

/// Where the payment stands.
public enum PaymentStatus: String, Codable, Sendable {
    case pending, settled, failed
}

// The same page as a team writes it for Foundation's `JSONDecoder` with `.iso8601` dates.

/// A payment, strictly: `kind` as text, since the API adds kinds.
public struct StrictPayment: Codable, Equatable, Sendable {
    public var id: UUID
    public var accountId: UUID
    public var amount: Decimal
    public var fee: Decimal?
    public var currency: Currency
    public var kind: String
    public var status: PaymentStatus
    public var createdAt: Date
    public var settledAt: Date?
    public var merchant: StrictMerchant?
    public var tags: [String]
}

/// A merchant, strictly.
public struct StrictMerchant: Codable, Equatable, Sendable {
    public var id: UUID
    public var name: String
    public var category: String
}

extension StrictPayment {
    /// Foundation's decoder as the app sets it for this API: ISO 8601 dates.
    public static func foundationDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `KilnDecoder` with the same strategy.
    public static var kilnDecoder: KilnDecoder {
        var decoder = KilnDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
