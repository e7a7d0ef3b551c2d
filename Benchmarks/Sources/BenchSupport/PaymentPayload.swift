/// The generated payments page of the decode benchmark: ~2 MB of a payments API's list, the
/// types a house API's models hold beyond strings and numbers — `UUID` ids, `Decimal` amounts,
/// ISO 8601 dates, raw-value enums — with nulls where the API sends them and, in one payment in
/// fifty, a kind the app's enum does not know (`cashback`).
///
/// Built from a fixed seed, so every run and every test reads the same bytes.
public enum PaymentPayload {
    /// The payload as any byte collection (`Data`, `[UInt8]`).
    public static func make<Bytes: RangeReplaceableCollection>(
        as type: Bytes.Type, payments count: Int = 5_000, seed: UInt64 = 0x9A7E_0E5A_11CE_0002
    )
        -> Bytes where Bytes.Element == UInt8
    {
        var random = SplitMix64(seed: seed)
        let accounts = (0..<20).map { _ in uuid(&random) }
        return GeneratedList.make(count, between: "[", and: "]", bytesEach: 480) { _, out in
            writePayment(account: accounts[Int(random.next() % UInt64(accounts.count))], random: &random, to: &out)
        }
    }

    static let currencies = ["EUR", "EUR", "EUR", "USD", "GBP", "JPY"]
    static let kinds = ["card", "card", "card", "transfer", "refund", "fee"]
    static let merchants = [("Bäckerei Lind", "bakery"), ("Metro Lines", "transport"), ("Corner Grocer", "grocery"), ("Cloud Storage Inc.", "software")]
    static let tags = ["travel", "work", "shared", "recurring"]

    /// A UUID's canonical text, uppercase as Foundation writes it (a quarter of them lowercase, as
    /// other servers write them).
    static func uuid(_ random: inout SplitMix64) -> String {
        let high = random.next()
        let low = random.next()
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        // Version 4, variant 1, as `UUID()` makes them.
        let groups = [
            hex(high >> 32, 8), hex(high >> 16 & 0xFFFF, 4), "4" + hex(high & 0xFFF, 3), hex(8 | low >> 62, 1) + hex(low >> 48 & 0xFFF, 3),
            hex(low & 0xFFFF_FFFF_FFFF, 12),
        ]
        let text = groups.joined(separator: "-")
        return low % 4 == 0 ? text.lowercased() : text
    }

    static func writePayment<Bytes: RangeReplaceableCollection>(account: String, random: inout SplitMix64, to out: inout Bytes) where Bytes.Element == UInt8 {
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        let cents = 1 + Int(random.next() % 250_000)
        let amount = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        append(#"{"id":"\#(uuid(&random))","accountId":"\#(account)","amount":\#(amount),"#)
        append(random.next() % 3 == 0 ? #""fee":0.\#(10 + random.next() % 90),"# : #""fee":null,"#)
        let kind = random.next() % 50 == 0 ? "cashback" : kinds[Int(random.next() % UInt64(kinds.count))]
        append(#""currency":"\#(currencies[Int(random.next() % UInt64(currencies.count))])","kind":"\#(kind)","#)
        let settled = random.next() % 4 != 0
        append(#""status":"\#(settled ? "settled" : "pending")","createdAt":"\#(IssuePayload.date(&random))","#)
        append(settled ? #""settledAt":"\#(IssuePayload.date(&random))","# : #""settledAt":null,"#)
        if kind == "card" {
            let (name, category) = merchants[Int(random.next() % UInt64(merchants.count))]
            append(#""merchant":{"id":"\#(uuid(&random))","name":"\#(name)","category":"\#(category)"},"#)
        } else {
            append(#""merchant":null,"#)
        }
        let chosen = (0..<Int(random.next() % 3)).map { _ in #""\#(tags[Int(random.next() % UInt64(tags.count))])""# }
        append(#""tags":[\#(chosen.joined(separator: ","))]}"#)
    }
}
