// simdjson On-Demand into structs: see include/SimdjsonLimit.h.
//
// Each struct has the members of the BenchSupport @DataModel type of the same name, with the same
// initial values, and the leniency that is cheap here: a missing or null member keeps its initial
// value, an integer sent as a string of digits is read as a number, `0`/`1` read as a Bool, and an
// array element of the wrong kind is dropped. Members are matched by the document's key spelling
// (snake_case in twitter.json and the articles, camelCase in citm_catalog.json), in whatever order
// the document sends them.
#include "SimdjsonLimit.h"

#if defined(__linux__) && __has_include(<simdjson.h>)
#include <simdjson.h>

#include <charconv>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace {

using namespace simdjson;
// A value as iteration hands it over: its getters report an earlier error as their own.
using value = simdjson_result<ondemand::value>;

// MARK: - Lenient reads: each returns whether it assigned `out`.

bool read(value v, int64_t &out) {
    int64_t number;
    if (v.get_int64().get(number) == SUCCESS) {
        out = number;
        return true;
    }
    std::string_view text;
    if (v.get_string().get(text) != SUCCESS) return false;
    const char *end = text.data() + text.size();
    auto result = std::from_chars(text.data(), end, number);
    if (result.ec != std::errc() || result.ptr != end) return false;
    out = number;
    return true;
}

bool read(value v, std::optional<int64_t> &out) {
    int64_t number = 0;
    if (!read(v, number)) return false;
    out = number;
    return true;
}

bool read(value v, double &out) {
    double number;
    if (v.get_double().get(number) != SUCCESS) return false;
    out = number;
    return true;
}

bool read(value v, bool &out) {
    bool flag;
    if (v.get_bool().get(flag) == SUCCESS) {
        out = flag;
        return true;
    }
    int64_t number;
    if (v.get_int64().get(number) != SUCCESS || (number != 0 && number != 1)) return false;
    out = number == 1;
    return true;
}

bool read(value v, std::string &out) {
    std::string_view text;
    if (v.get_string().get(text) != SUCCESS) return false;
    out.assign(text);
    return true;
}

bool read(value v, std::optional<std::string> &out) {
    std::string_view text;
    if (v.get_string().get(text) != SUCCESS) return false;
    out.emplace(text);
    return true;
}

template <typename Element> bool read(value v, std::vector<Element> &out);
template <typename Element> bool read(value v, std::unordered_map<std::string, Element> &out);

// A model (a struct with `member(key, value)`): its members matched key by key.
template <typename Model, typename = decltype(std::declval<Model &>().member(std::string_view(), std::declval<value>()))>
bool read(value v, Model &out) {
    ondemand::object object;
    if (v.get_object().get(object) != SUCCESS) return false;
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != SUCCESS) return false;
        out.member(key, field.value());
    }
    return true;
}

// Lossy arrays and dictionaries: an element that does not read is dropped.
template <typename Element> bool read(value v, std::vector<Element> &out) {
    ondemand::array array;
    if (v.get_array().get(array) != SUCCESS) return false;
    out.clear();
    for (value element : array) {
        Element decoded{};
        if (read(element, decoded)) out.push_back(std::move(decoded));
    }
    return true;
}

template <typename Element> bool read(value v, std::unordered_map<std::string, Element> &out) {
    ondemand::object object;
    if (v.get_object().get(object) != SUCCESS) return false;
    out.clear();
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != SUCCESS) return false;
        Element decoded{};
        if (read(field.value(), decoded)) out.insert_or_assign(std::string(key), std::move(decoded));
    }
    return true;
}

// MARK: - The digest (BenchSupport's ModelDigest sums the same way)

struct Digest {
    KilnLimitDigest sums{};

    void add(int64_t number) { sums.integers += static_cast<uint64_t>(number); }
    void add(bool flag) { sums.trues += flag ? 1 : 0; }
    void add(double number) {
        uint64_t bits;
        std::memcpy(&bits, &number, sizeof bits);
        sums.doubleBits += bits;
    }
    void add(const std::string &text) {
        uint64_t hash = 0xcbf29ce484222325ULL;
        for (unsigned char byte : text) hash = (hash ^ byte) * 0x100000001b3ULL;
        sums.strings += 1;
        sums.stringBytes += text.size();
        sums.stringHashes += hash;
    }
    template <typename Wrapped> void add(const std::optional<Wrapped> &optional) {
        if (optional) add(*optional);
        else sums.nils += 1;
    }
    template <typename Element> void add(const std::vector<Element> &elements) {
        for (const auto &element : elements) {
            sums.elements += 1;
            add(element);
        }
    }
    template <typename Element> void add(const std::unordered_map<std::string, Element> &entries) {
        for (const auto &[key, element] : entries) {
            sums.elements += 1;
            add(key);
            add(element);
        }
    }
    template <typename Model, typename = decltype(std::declval<const Model &>().digest(std::declval<Digest &>()))>
    void add(const Model &model) {
        model.digest(*this);
    }
};

// MARK: - The articles (ArticleModels.swift)

struct Author {
    int64_t userId = 0;
    std::string nickName = "--";
    std::optional<std::string> avatarUrl;
    int64_t followers = 0;

    void member(std::string_view key, value v) {
        if (key == "user_id") read(v, userId);
        else if (key == "nick_name") read(v, nickName);
        else if (key == "avatar_url") read(v, avatarUrl);
        else if (key == "followers") read(v, followers);
    }
    void digest(Digest &d) const { d.add(userId), d.add(nickName), d.add(avatarUrl), d.add(followers); }
};

struct Article {
    int64_t articleId = 0;
    std::string title = "--";
    std::string desc;
    int64_t pubDate = 0;
    int64_t viewCount = 0;
    bool isTop = false;
    std::optional<std::string> coverURL;
    std::vector<std::string> tags;
    Author author;

    void member(std::string_view key, value v) {
        if (key == "article_id") read(v, articleId);
        else if (key == "title") read(v, title);
        else if (key == "desc") read(v, desc);
        else if (key == "pub_date") read(v, pubDate);
        else if (key == "view_count") read(v, viewCount);
        else if (key == "is_top") read(v, isTop);
        else if (key == "cover_url") read(v, coverURL);
        else if (key == "tags") read(v, tags);
        else if (key == "author") read(v, author);
    }
    void digest(Digest &d) const {
        d.add(articleId), d.add(title), d.add(desc), d.add(pubDate), d.add(viewCount), d.add(isTop);
        d.add(coverURL), d.add(tags), d.add(author);
    }
};

struct ArticleData {
    int64_t page = 0;
    int64_t totalPages = 0;
    std::vector<Article> list;

    void member(std::string_view key, value v) {
        if (key == "page") read(v, page);
        else if (key == "total_pages") read(v, totalPages);
        else if (key == "list") read(v, list);
    }
    void digest(Digest &d) const { d.add(page), d.add(totalPages), d.add(list); }
};

struct ArticlePage {
    std::string code = "--";
    std::string msg;
    ArticleData data;

    void member(std::string_view key, value v) {
        if (key == "code") read(v, code);
        else if (key == "msg") read(v, msg);
        else if (key == "data") read(v, data);
    }
    void digest(Digest &d) const { d.add(code), d.add(msg), d.add(data); }
};

// MARK: - twitter.json (TwitterModels.swift)

struct SearchMetadata {
    double completedIn = 0;
    int64_t maxId = 0;
    int64_t count = 0;
    std::string query = "--";
    int64_t sinceIdStr = 0;

    void member(std::string_view key, value v) {
        if (key == "completed_in") read(v, completedIn);
        else if (key == "max_id") read(v, maxId);
        else if (key == "count") read(v, count);
        else if (key == "query") read(v, query);
        else if (key == "since_id_str") read(v, sinceIdStr);
    }
    void digest(Digest &d) const { d.add(completedIn), d.add(maxId), d.add(count), d.add(query), d.add(sinceIdStr); }
};

struct TwitterUser {
    int64_t id = 0;
    std::string name = "--";
    std::string screenName = "--";
    std::optional<std::string> url;
    std::string description;
    int64_t followersCount = 0;
    int64_t friendsCount = 0;
    int64_t utcOffset = 0;
    std::string timeZone = "--";
    bool verified = false;
    std::string lang = "--";

    void member(std::string_view key, value v) {
        if (key == "id") read(v, id);
        else if (key == "name") read(v, name);
        else if (key == "screen_name") read(v, screenName);
        else if (key == "url") read(v, url);
        else if (key == "description") read(v, description);
        else if (key == "followers_count") read(v, followersCount);
        else if (key == "friends_count") read(v, friendsCount);
        else if (key == "utc_offset") read(v, utcOffset);
        else if (key == "time_zone") read(v, timeZone);
        else if (key == "verified") read(v, verified);
        else if (key == "lang") read(v, lang);
    }
    void digest(Digest &d) const {
        d.add(id), d.add(name), d.add(screenName), d.add(url), d.add(description), d.add(followersCount);
        d.add(friendsCount), d.add(utcOffset), d.add(timeZone), d.add(verified), d.add(lang);
    }
};

struct Hashtag {
    std::string text = "--";
    std::vector<int64_t> indices;

    void member(std::string_view key, value v) {
        if (key == "text") read(v, text);
        else if (key == "indices") read(v, indices);
    }
    void digest(Digest &d) const { d.add(text), d.add(indices); }
};

struct URLEntity {
    std::string url;
    std::string expandedUrl;
    std::string displayUrl;
    std::vector<int64_t> indices;

    void member(std::string_view key, value v) {
        if (key == "url") read(v, url);
        else if (key == "expanded_url") read(v, expandedUrl);
        else if (key == "display_url") read(v, displayUrl);
        else if (key == "indices") read(v, indices);
    }
    void digest(Digest &d) const { d.add(url), d.add(expandedUrl), d.add(displayUrl), d.add(indices); }
};

struct Mention {
    std::string screenName = "--";
    std::string name = "--";
    int64_t id = 0;
    int64_t idStr = 0;
    std::vector<int64_t> indices;

    void member(std::string_view key, value v) {
        if (key == "screen_name") read(v, screenName);
        else if (key == "name") read(v, name);
        else if (key == "id") read(v, id);
        else if (key == "id_str") read(v, idStr);
        else if (key == "indices") read(v, indices);
    }
    void digest(Digest &d) const { d.add(screenName), d.add(name), d.add(id), d.add(idStr), d.add(indices); }
};

struct Entities {
    std::vector<Hashtag> hashtags;
    std::vector<URLEntity> urls;
    std::vector<Mention> userMentions;

    void member(std::string_view key, value v) {
        if (key == "hashtags") read(v, hashtags);
        else if (key == "urls") read(v, urls);
        else if (key == "user_mentions") read(v, userMentions);
    }
    void digest(Digest &d) const { d.add(hashtags), d.add(urls), d.add(userMentions); }
};

// `place.full_name`, read through the (usually null) `place` object.
struct Place {
    std::string *fullName;

    void member(std::string_view key, value v) {
        if (key == "full_name") read(v, *fullName);
    }
};

struct Status {
    int64_t id = 0;
    int64_t idStr = 0;
    std::string createdAt = "--";
    std::string text = "--";
    bool truncated = false;
    std::optional<int64_t> inReplyToStatusId;
    std::optional<std::string> inReplyToScreenName;
    TwitterUser user;
    int64_t retweetCount = 0;
    int64_t favoriteCount = 0;
    Entities entities;
    bool favorited = false;
    std::string lang = "--";
    std::string placeName = "--";
    bool possiblySensitive = false;

    void member(std::string_view key, value v) {
        if (key == "id") read(v, id);
        else if (key == "id_str") read(v, idStr);
        else if (key == "created_at") read(v, createdAt);
        else if (key == "text") read(v, text);
        else if (key == "truncated") read(v, truncated);
        else if (key == "in_reply_to_status_id") read(v, inReplyToStatusId);
        else if (key == "in_reply_to_screen_name") read(v, inReplyToScreenName);
        else if (key == "user") read(v, user);
        else if (key == "retweet_count") read(v, retweetCount);
        else if (key == "favorite_count") read(v, favoriteCount);
        else if (key == "entities") read(v, entities);
        else if (key == "favorited") read(v, favorited);
        else if (key == "lang") read(v, lang);
        else if (key == "place") {
            Place place{&placeName};
            read(v, place);
        } else if (key == "possibly_sensitive") read(v, possiblySensitive);
    }
    void digest(Digest &d) const {
        d.add(id), d.add(idStr), d.add(createdAt), d.add(text), d.add(truncated), d.add(inReplyToStatusId);
        d.add(inReplyToScreenName), d.add(user), d.add(retweetCount), d.add(favoriteCount), d.add(entities);
        d.add(favorited), d.add(lang), d.add(placeName), d.add(possiblySensitive);
    }
};

struct TwitterPage {
    std::vector<Status> statuses;
    SearchMetadata searchMetadata;

    void member(std::string_view key, value v) {
        if (key == "statuses") read(v, statuses);
        else if (key == "search_metadata") read(v, searchMetadata);
    }
    void digest(Digest &d) const { d.add(statuses), d.add(searchMetadata); }
};

// MARK: - citm_catalog.json (CatalogModels.swift)

struct Area {
    int64_t areaId = 0;
    std::vector<int64_t> blockIds;

    void member(std::string_view key, value v) {
        if (key == "areaId") read(v, areaId);
        else if (key == "blockIds") read(v, blockIds);
    }
    void digest(Digest &d) const { d.add(areaId), d.add(blockIds); }
};

struct SeatCategory {
    std::vector<Area> areas;
    int64_t seatCategoryId = 0;

    void member(std::string_view key, value v) {
        if (key == "areas") read(v, areas);
        else if (key == "seatCategoryId") read(v, seatCategoryId);
    }
    void digest(Digest &d) const { d.add(areas), d.add(seatCategoryId); }
};

struct Price {
    int64_t amount = 0;
    int64_t audienceSubCategoryId = 0;
    int64_t seatCategoryId = 0;

    void member(std::string_view key, value v) {
        if (key == "amount") read(v, amount);
        else if (key == "audienceSubCategoryId") read(v, audienceSubCategoryId);
        else if (key == "seatCategoryId") read(v, seatCategoryId);
    }
    void digest(Digest &d) const { d.add(amount), d.add(audienceSubCategoryId), d.add(seatCategoryId); }
};

struct Performance {
    int64_t eventId = 0;
    int64_t id = 0;
    std::optional<std::string> logo;
    std::string name = "--";
    std::vector<Price> prices;
    std::vector<SeatCategory> seatCategories;
    int64_t start = 0;
    std::string venueCode = "--";

    void member(std::string_view key, value v) {
        if (key == "eventId") read(v, eventId);
        else if (key == "id") read(v, id);
        else if (key == "logo") read(v, logo);
        else if (key == "name") read(v, name);
        else if (key == "prices") read(v, prices);
        else if (key == "seatCategories") read(v, seatCategories);
        else if (key == "start") read(v, start);
        else if (key == "venueCode") read(v, venueCode);
    }
    void digest(Digest &d) const {
        d.add(eventId), d.add(id), d.add(logo), d.add(name), d.add(prices), d.add(seatCategories), d.add(start);
        d.add(venueCode);
    }
};

struct Event {
    std::string description = "--";
    int64_t id = 0;
    std::optional<std::string> logo;
    std::string name = "--";
    std::vector<int64_t> subTopicIds;
    std::string subtitle;
    std::vector<int64_t> topicIds;

    void member(std::string_view key, value v) {
        if (key == "description") read(v, description);
        else if (key == "id") read(v, id);
        else if (key == "logo") read(v, logo);
        else if (key == "name") read(v, name);
        else if (key == "subTopicIds") read(v, subTopicIds);
        else if (key == "subtitle") read(v, subtitle);
        else if (key == "topicIds") read(v, topicIds);
    }
    void digest(Digest &d) const {
        d.add(description), d.add(id), d.add(logo), d.add(name), d.add(subTopicIds), d.add(subtitle), d.add(topicIds);
    }
};

struct Catalog {
    std::unordered_map<std::string, std::string> areaNames;
    std::unordered_map<std::string, Event> events;
    std::vector<Performance> performances;
    std::unordered_map<std::string, std::vector<int64_t>> topicSubTopics;
    std::unordered_map<std::string, std::string> venueNames;

    void member(std::string_view key, value v) {
        if (key == "areaNames") read(v, areaNames);
        else if (key == "events") read(v, events);
        else if (key == "performances") read(v, performances);
        else if (key == "topicSubTopics") read(v, topicSubTopics);
        else if (key == "venueNames") read(v, venueNames);
    }
    void digest(Digest &d) const {
        d.add(areaNames), d.add(events), d.add(performances), d.add(topicSubTopics), d.add(venueNames);
    }
};

// MARK: - canada.json (CanadaModels.swift)

struct CanadaGeometry {
    std::string type;
    std::vector<std::vector<std::vector<double>>> coordinates;

    void member(std::string_view key, value v) {
        if (key == "type") read(v, type);
        else if (key == "coordinates") read(v, coordinates);
    }
    void digest(Digest &d) const { d.add(type), d.add(coordinates); }
};

struct CanadaFeature {
    std::string type;
    std::unordered_map<std::string, std::string> properties;
    CanadaGeometry geometry;

    void member(std::string_view key, value v) {
        if (key == "type") read(v, type);
        else if (key == "properties") read(v, properties);
        else if (key == "geometry") read(v, geometry);
    }
    void digest(Digest &d) const { d.add(type), d.add(properties), d.add(geometry); }
};

struct Canada {
    std::string type;
    std::vector<CanadaFeature> features;

    void member(std::string_view key, value v) {
        if (key == "type") read(v, type);
        else if (key == "features") read(v, features);
    }
    void digest(Digest &d) const { d.add(type), d.add(features); }
};

// The root: a fresh model each decode (as Kiln builds one), kept until the next.
template <typename Model> int decodeRoot(ondemand::parser &parser, padded_string &json, std::unique_ptr<Model> &out) {
    auto model = std::make_unique<Model>();
    ondemand::document document;
    if (auto error = parser.iterate(json).get(document)) return error;
    ondemand::object object;
    if (auto error = document.get_object().get(object)) return error;
    for (auto field : object) {
        std::string_view key;
        if (auto error = field.unescaped_key().get(key)) return error;
        model->member(key, field.value());
    }
    out = std::move(model);
    return SUCCESS;
}

template <typename Model> KilnLimitDigest digestOf(const std::unique_ptr<Model> &model) {
    Digest digest;
    if (model) model->digest(digest);
    return digest.sums;
}

}  // namespace

struct KilnLimitDecoder {
    KilnLimitDecoder(const uint8_t *bytes, size_t length) : json(reinterpret_cast<const char *>(bytes), length) {}

    padded_string json;
    ondemand::parser parser;
    std::unique_ptr<ArticlePage> articles;
    std::unique_ptr<TwitterPage> twitter;
    std::unique_ptr<Catalog> catalog;
    std::unique_ptr<Canada> canada;
};

extern "C" {

bool kiln_limit_available(void) { return true; }

// The kernel the On-Demand code in this file was compiled for (the library's own builtin can differ).
#define KILN_LIMIT_NAME(x) #x
#define KILN_LIMIT_STRING(x) KILN_LIMIT_NAME(x)
const char *kiln_limit_implementation(void) { return KILN_LIMIT_STRING(SIMDJSON_BUILTIN_IMPLEMENTATION); }

// The string lives as long as the implementation object, which is static in the library.
const char *kiln_limit_structure_implementation(void) { return simdjson::get_active_implementation()->name().c_str(); }

const char *kiln_limit_error_message(int code) { return simdjson::error_message(static_cast<simdjson::error_code>(code)); }

KilnLimitDecoder *kiln_limit_create(const uint8_t *bytes, size_t length) {
    return new KilnLimitDecoder(bytes, length);
}

int kiln_limit_decode(KilnLimitDecoder *decoder, KilnLimitPayload payload) {
    switch (payload) {
    case KilnLimitPayloadArticles: return decodeRoot(decoder->parser, decoder->json, decoder->articles);
    case KilnLimitPayloadTwitter: return decodeRoot(decoder->parser, decoder->json, decoder->twitter);
    case KilnLimitPayloadCatalog: return decodeRoot(decoder->parser, decoder->json, decoder->catalog);
    case KilnLimitPayloadCanada: return decodeRoot(decoder->parser, decoder->json, decoder->canada);
    }
    return INCORRECT_TYPE;
}

KilnLimitDigest kiln_limit_digest(const KilnLimitDecoder *decoder, KilnLimitPayload payload) {
    switch (payload) {
    case KilnLimitPayloadArticles: return digestOf(decoder->articles);
    case KilnLimitPayloadTwitter: return digestOf(decoder->twitter);
    case KilnLimitPayloadCatalog: return digestOf(decoder->catalog);
    case KilnLimitPayloadCanada: return digestOf(decoder->canada);
    }
    return KilnLimitDigest{};
}

void kiln_limit_destroy(KilnLimitDecoder *decoder) { delete decoder; }
}

#else

extern "C" {
bool kiln_limit_available(void) { return false; }
const char *kiln_limit_implementation(void) { return "unavailable"; }
const char *kiln_limit_structure_implementation(void) { return "unavailable"; }
const char *kiln_limit_error_message(int) { return "simdjson is not built in"; }
KilnLimitDecoder *kiln_limit_create(const uint8_t *, size_t) { return nullptr; }
int kiln_limit_decode(KilnLimitDecoder *, KilnLimitPayload) { return -1; }
KilnLimitDigest kiln_limit_digest(const KilnLimitDecoder *, KilnLimitPayload) { return KilnLimitDigest{}; }
void kiln_limit_destroy(KilnLimitDecoder *) {}
}

#endif
