/// Sums over every value a decoded payload holds, so that two decoders of the same members can be
/// compared without walking both trees side by side: `kiln-bench decode` checks that simdjson's
/// structs (the limit row) hold what Kiln's models hold before it times them.
///
/// The sums are order-free (dictionaries have no order); the simdjson shim computes the same ones.
public struct ModelDigest: Equatable, Sendable, CustomStringConvertible {
    /// Array elements and dictionary entries.
    public var elements: UInt64 = 0
    /// Wrapping sum of every integer.
    public var integers: UInt64 = 0
    /// Bools that are `true`.
    public var trues: UInt64 = 0
    /// Strings, dictionary keys among them.
    public var strings: UInt64 = 0
    /// Their UTF-8 bytes.
    public var stringBytes: UInt64 = 0
    /// Wrapping sum of each string's FNV-1a 64 hash.
    public var stringHashes: UInt64 = 0
    /// Optionals that are nil.
    public var nils: UInt64 = 0
    /// Wrapping sum of every double's bit pattern.
    public var doubleBits: UInt64 = 0

    /// An empty digest.
    public init() {}

    /// The digest of `model` and everything it holds.
    public init(of model: some DigestibleModel) {
        model.digest(into: &self)
    }

    public var description: String {
        "elements \(elements), integers \(integers), trues \(trues), strings \(strings) (\(stringBytes) bytes, hashes \(stringHashes)), nils \(nils), doubles \(doubleBits)"
    }

    mutating func add(_ value: Int) { add(Int64(value)) }
    mutating func add(_ value: Int64) { integers &+= UInt64(bitPattern: value) }
    mutating func add(_ value: Bool) { trues &+= value ? 1 : 0 }
    mutating func add(_ value: Double) { doubleBits &+= value.bitPattern }

    mutating func add(_ value: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        strings &+= 1
        stringBytes &+= UInt64(value.utf8.count)
        stringHashes &+= hash
    }

    mutating func add(_ value: String?) {
        if let value { add(value) } else { nils &+= 1 }
    }

    mutating func add(_ value: Int64?) {
        if let value { add(value) } else { nils &+= 1 }
    }

    mutating func add<Element>(_ elements: [Element], _ each: (inout ModelDigest, Element) -> Void) {
        for element in elements {
            self.elements &+= 1
            each(&self, element)
        }
    }

    mutating func add<Element>(_ entries: [String: Element], _ each: (inout ModelDigest, Element) -> Void) {
        for (key, element) in entries {
            elements &+= 1
            add(key)
            each(&self, element)
        }
    }

    mutating func add(_ model: some DigestibleModel) { model.digest(into: &self) }
}

/// A benchmark model that adds its members to a ``ModelDigest``, in declaration order.
public protocol DigestibleModel {
    /// Adds every member.
    func digest(into digest: inout ModelDigest)
}

// MARK: - The articles

extension ArticlePage: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(code)
        d.add(msg)
        d.add(data)
    }
}

extension ArticleData: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(page)
        d.add(totalPages)
        d.add(list) { $0.add($1) }
    }
}

extension Article: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(articleId)
        d.add(title)
        d.add(desc)
        d.add(pubDate)
        d.add(viewCount)
        d.add(isTop)
        d.add(coverURL)
        d.add(tags) { $0.add($1) }
        d.add(author)
    }
}

extension Author: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(userId)
        d.add(nickName)
        d.add(avatarUrl)
        d.add(followers)
    }
}

// MARK: - twitter.json

extension TwitterPage: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(statuses) { $0.add($1) }
        d.add(searchMetadata)
    }
}

extension SearchMetadata: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(completedIn)
        d.add(maxId)
        d.add(count)
        d.add(query)
        d.add(sinceIdStr)
    }
}

extension Status: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(id)
        d.add(idStr)
        d.add(createdAt)
        d.add(text)
        d.add(truncated)
        d.add(inReplyToStatusId)
        d.add(inReplyToScreenName)
        d.add(user)
        d.add(retweetCount)
        d.add(favoriteCount)
        d.add(entities)
        d.add(favorited)
        d.add(lang)
        d.add(placeName)
        d.add(possiblySensitive)
    }
}

extension TwitterUser: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(id)
        d.add(name)
        d.add(screenName)
        d.add(url)
        d.add(description)
        d.add(followersCount)
        d.add(friendsCount)
        d.add(utcOffset)
        d.add(timeZone)
        d.add(verified)
        d.add(lang)
    }
}

extension Entities: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(hashtags) { $0.add($1) }
        d.add(urls) { $0.add($1) }
        d.add(userMentions) { $0.add($1) }
    }
}

extension Hashtag: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(text)
        d.add(indices) { $0.add($1) }
    }
}

extension URLEntity: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(url)
        d.add(expandedUrl)
        d.add(displayUrl)
        d.add(indices) { $0.add($1) }
    }
}

extension Mention: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(screenName)
        d.add(name)
        d.add(id)
        d.add(idStr)
        d.add(indices) { $0.add($1) }
    }
}

// MARK: - citm_catalog.json

extension Catalog: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(areaNames) { $0.add($1) }
        d.add(events) { $0.add($1) }
        d.add(performances) { $0.add($1) }
        d.add(topicSubTopics) { digest, ids in digest.add(ids) { $0.add($1) } }
        d.add(venueNames) { $0.add($1) }
    }
}

extension Event: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(description)
        d.add(id)
        d.add(logo)
        d.add(name)
        d.add(subTopicIds) { $0.add($1) }
        d.add(subtitle)
        d.add(topicIds) { $0.add($1) }
    }
}

extension Performance: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(eventId)
        d.add(id)
        d.add(logo)
        d.add(name)
        d.add(prices) { $0.add($1) }
        d.add(seatCategories) { $0.add($1) }
        d.add(start)
        d.add(venueCode)
    }
}

extension Price: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(amount)
        d.add(audienceSubCategoryId)
        d.add(seatCategoryId)
    }
}

extension SeatCategory: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(areas) { $0.add($1) }
        d.add(seatCategoryId)
    }
}

extension Area: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(areaId)
        d.add(blockIds) { $0.add($1) }
    }
}

// MARK: - canada.json

extension Canada: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(type)
        d.add(features) { $0.add($1) }
    }
}

extension CanadaFeature: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(type)
        d.add(properties) { $0.add($1) }
        d.add(geometry)
    }
}

extension CanadaGeometry: DigestibleModel {
    public func digest(into d: inout ModelDigest) {
        d.add(type)
        d.add(coordinates) { rings, ring in rings.add(ring) { points, point in points.add(point) { $0.add($1) } } }
    }
}
