#include "demo/DemoDataGenerator.h"

#include "bson/internal/BsonDocument.h"
#include "demo/CatalogueProduct.h"
#include "output/StagedOutput.h"
#include "stats/SplitMix64.h"

#include <QDir>
#include <QFileInfo>

#include <bson/bson.h>

#include <cmath>
#include <ctime>
#include <string>
#include <vector>

namespace oe {

namespace {

const char *const kWords[] = {"outlier", "pattern", "mongo", "array", "bucket", "friday", "deploy",
                              "query",   "index",   "shard", "cache", "schema", "growth", "page",
                              "viral",   "comment", "share", "like",  "post",   "feed",   "book"};
constexpr std::uint64_t kWordCount = sizeof(kWords) / sizeof(kWords[0]);
const char *const kTypes[] = {"like", "comment", "post", "share"};
const std::int64_t kEpochMs = 1767225600000; // 2026-01-01T00:00:00Z

std::string sentence(SplitMix64 &rng, std::uint64_t minChars, std::uint64_t maxChars)
{
    const std::uint64_t target = rng.between(minChars, maxChars);
    std::string s;
    while (s.size() < target) {
        if (!s.empty())
            s.push_back(' ');
        s += kWords[rng.below(kWordCount)];
    }
    s.resize(target);
    return s;
}

std::uint64_t logUniform(SplitMix64 &rng, std::uint64_t lo, std::uint64_t hi)
{
    const double l = std::log(double(lo)), h = std::log(double(hi));
    return std::uint64_t(std::exp(l + rng.uniform() * (h - l)));
}

void appendIndexKey(bson_t *array, std::uint32_t index, bson_t *child, bool document)
{
    char buf[16];
    const char *key = nullptr;
    const std::size_t len = bson_uint32_to_string(index, &key, buf, sizeof buf);
    if (document)
        bson_append_document_begin(array, key, int(len), child);
}

// --- book sales (MongoDB manual's outlier pattern page: a threshold of 50 buyers) ---------
void bookSale(bson_t *doc, std::uint64_t i, SplitMix64 &rng)
{
    BSON_APPEND_INT32(doc, "_id", std::int32_t(i + 1));
    const std::string title = "Book " + std::to_string(i + 1) + ": " + sentence(rng, 8, 30);
    BSON_APPEND_UTF8(doc, "title", title.c_str());
    BSON_APPEND_INT32(doc, "year", std::int32_t(1950 + rng.below(76)));
    const std::string author = "Author " + std::to_string(rng.below(400));
    BSON_APPEND_UTF8(doc, "author", author.c_str());
    // 96% sell a handful of copies (median ~8, never past 45); 4% are best sellers.
    std::uint64_t sales;
    if (rng.below(100) < 4)
        sales = logUniform(rng, 60, 5000);
    else
        sales = std::min<std::uint64_t>(
            45, std::uint64_t(std::exp(std::log(8.0) + 0.7 * rng.normal())));
    bson_t buyers;
    BSON_APPEND_ARRAY_BEGIN(doc, "customers_purchased", &buyers);
    char key[16];
    char user[16];
    for (std::uint64_t k = 0; k < sales; ++k) {
        const char *keyStr = nullptr;
        const std::size_t keyLen =
            bson_uint32_to_string(std::uint32_t(k), &keyStr, key, sizeof key);
        std::snprintf(user, sizeof user, "user%05u", unsigned(rng.below(100000)));
        bson_append_utf8(&buyers, keyStr, int(keyLen), user, -1);
    }
    bson_append_array_end(doc, &buyers);
}

// --- activity feeds (the "unbounded growth" chapter: 1% power users, one near 16 MB) -----
struct FeedShape
{
    std::uint64_t typicalMin, typicalMax; // entries for 99% of users
    std::uint64_t powerMin, powerMax;     // entries for 1%
    bool giant;                           // one user whose document approaches 16 MB
    std::uint64_t contentMin, contentMax; // post text length
};

void activity(bson_t *array, std::uint32_t index, SplitMix64 &rng, const FeedShape &shape,
              std::int64_t ts)
{
    bson_t a;
    appendIndexKey(array, index, &a, true);
    const std::uint64_t t = rng.below(100);
    const char *type = t < 55 ? kTypes[0] : t < 80 ? kTypes[1] : t < 92 ? kTypes[2] : kTypes[3];
    BSON_APPEND_UTF8(&a, "type", type);
    BSON_APPEND_DATE_TIME(&a, "ts", ts);
    char target[24];
    std::snprintf(target, sizeof target, "post-%06u", unsigned(rng.below(1000000)));
    if (type == kTypes[2]) {
        const std::string content = sentence(rng, shape.contentMin, shape.contentMax);
        BSON_APPEND_UTF8(&a, "content", content.c_str());
        bson_t tags;
        BSON_APPEND_ARRAY_BEGIN(&a, "tags", &tags);
        const std::uint64_t n = rng.below(4);
        for (std::uint64_t k = 0; k < n; ++k) {
            char key[16];
            const char *keyStr = nullptr;
            const std::size_t keyLen =
                bson_uint32_to_string(std::uint32_t(k), &keyStr, key, sizeof key);
            bson_append_utf8(&tags, keyStr, int(keyLen), kWords[rng.below(kWordCount)], -1);
        }
        bson_append_array_end(&a, &tags);
    } else {
        BSON_APPEND_UTF8(&a, "targetId", target);
        if (type == kTypes[1]) {
            const std::string text = sentence(rng, shape.contentMin / 2, shape.contentMax / 2);
            BSON_APPEND_UTF8(&a, "text", text.c_str());
        }
    }
    bson_append_document_end(array, &a);
}

void feedUser(bson_t *doc, std::uint64_t i, std::uint64_t documents, SplitMix64 &rng,
              const FeedShape &shape)
{
    char id[24];
    std::snprintf(id, sizeof id, "user-%05llu", static_cast<unsigned long long>(i));
    BSON_APPEND_UTF8(doc, "_id", id);
    const std::string name = "User " + std::to_string(i);
    BSON_APPEND_UTF8(doc, "name", name.c_str());
    BSON_APPEND_DATE_TIME(doc, "joined", kEpochMs - std::int64_t(rng.below(1000)) * 86400000);
    bson_t profile;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "profile", &profile);
    BSON_APPEND_UTF8(&profile, "country", rng.below(2) ? "PT" : "NZ");
    BSON_APPEND_BOOL(&profile, "verified", rng.below(10) == 0);
    bson_append_document_end(doc, &profile);

    // Every hundredth user (1%) is a power user or bot; the one in the middle of the
    // collection is the account whose document approaches 16 MB.
    const bool power = i % 100 == 42;
    const bool giant = shape.giant && power && i / 100 == (documents / 100) / 2;
    const std::uint64_t entries = giant   ? UINT64_MAX
                                  : power ? logUniform(rng, shape.powerMin, shape.powerMax)
                                          : rng.between(shape.typicalMin, shape.typicalMax);
    bson_t list;
    BSON_APPEND_ARRAY_BEGIN(doc, "activities", &list);
    std::int64_t ts = kEpochMs;
    const std::uint32_t giantBytes = 15u * 1024u * 1024u + 512u * 1024u;
    for (std::uint64_t k = 0; k < entries; ++k) {
        ts += std::int64_t(rng.below(3600000));
        activity(&list, std::uint32_t(k), rng, shape, ts);
        if (giant && list.len + doc->len >= giantBytes)
            break;
    }
    const std::uint32_t count = bson_count_keys(&list);
    bson_append_array_end(doc, &list);
    BSON_APPEND_INT32(doc, "activityCount", std::int32_t(count));
}

// --- viral posts (the data-modeling patterns guide: 99.9% have a few comments) -------------
void post(bson_t *doc, std::uint64_t i, std::uint64_t documents, SplitMix64 &rng)
{
    std::uint8_t oidBytes[12] = {0x66, 0x5a, 0x00, 0x00, 0x0e, 0x1a, 0x7f, 0x00, 0, 0, 0, 0};
    for (int b = 0; b < 4; ++b)
        oidBytes[8 + b] = std::uint8_t((i >> (8 * (3 - b))) & 0xff);
    bson_oid_t oid;
    bson_oid_init_from_data(&oid, oidBytes);
    BSON_APPEND_OID(doc, "_id", &oid);
    const std::string title = sentence(rng, 12, 60);
    BSON_APPEND_UTF8(doc, "title", title.c_str());
    const std::string content = sentence(rng, 80, 600);
    BSON_APPEND_UTF8(doc, "content", content.c_str());
    const bool viral = i == documents / 3;
    std::uint64_t comments;
    if (viral)
        comments = 120000;
    else if (rng.below(100) < 2)
        comments = logUniform(rng, 150, 2500); // popular, not viral
    else
        comments = std::uint64_t(std::floor(-std::log(1.0 - rng.uniform()) * 6.0)); // ~6 on average
    bson_t list;
    BSON_APPEND_ARRAY_BEGIN(doc, "comments", &list);
    std::int64_t ts = kEpochMs + std::int64_t(i) * 60000;
    for (std::uint64_t k = 0; k < comments; ++k) {
        bson_t c;
        appendIndexKey(&list, std::uint32_t(k), &c, true);
        char author[24];
        std::snprintf(author, sizeof author, "dev_%04u", unsigned(rng.below(5000)));
        BSON_APPEND_UTF8(&c, "author", author);
        const std::string text = sentence(rng, 10, 90);
        BSON_APPEND_UTF8(&c, "text", text.c_str());
        ts += std::int64_t(rng.below(20000));
        BSON_APPEND_DATE_TIME(&c, "created_at", ts);
        bson_append_document_end(&list, &c);
    }
    bson_append_array_end(doc, &list);
    BSON_APPEND_INT32(doc, "comment_count", std::int32_t(comments));
}

// --- device readings (schema outliers of shape: every kind the Shape tab flags) -----------
// Sensors report a daily average under the day's date (keys used as data); the firmware is
// a number except in a few old devices (a string); tags are strings except for two numbers;
// five devices carry a calibration record (a rare field); two keep a 400 KB diagnostics dump
// as binary data (big scalars); one has 240 extra channels (many fields); one nests its
// configuration 30 levels deep.
void device(bson_t *doc, std::uint64_t i, std::uint64_t documents, SplitMix64 &rng)
{
    char id[24];
    std::snprintf(id, sizeof id, "dev-%05llu", static_cast<unsigned long long>(i));
    BSON_APPEND_UTF8(doc, "_id", id);
    static const char *const kModels[] = {"TH-10", "TH-20", "AQ-5", "PM-2"};
    // Drawn first: BSON_APPEND_UTF8 reads its value twice (the pointer and its strlen).
    const char *model = kModels[rng.below(4)];
    BSON_APPEND_UTF8(doc, "model", model);
    if (i % 250 == 17)
        BSON_APPEND_UTF8(doc, "firmware", "2.1-beta");
    else
        BSON_APPEND_INT32(doc, "firmware", std::int32_t(300 + rng.below(40)));
    bson_t tags;
    BSON_APPEND_ARRAY_BEGIN(doc, "tags", &tags);
    const std::uint32_t tagCount = std::uint32_t(1 + rng.below(3));
    for (std::uint32_t t = 0; t < tagCount; ++t) {
        const std::string key = std::to_string(t);
        if (t == 0 && (i == documents / 5 || i == documents / 2))
            BSON_APPEND_INT32(&tags, key.c_str(), 42);
        else {
            const char *word = kWords[rng.below(kWordCount)];
            BSON_APPEND_UTF8(&tags, key.c_str(), word);
        }
    }
    bson_append_array_end(doc, &tags);
    bson_t daily;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "daily", &daily);
    const std::uint64_t start = rng.below(300);
    const std::uint64_t days = 20 + rng.below(40);
    for (std::uint64_t d = 0; d < days; ++d) {
        const std::int64_t dayMs = kEpochMs + std::int64_t(start + d) * 86400000;
        const time_t seconds = time_t(dayMs / 1000);
        struct tm utc;
        gmtime_r(&seconds, &utc);
        char day[16];
        std::strftime(day, sizeof day, "%Y-%m-%d", &utc);
        BSON_APPEND_DOUBLE(&daily, day, 15.0 + double(rng.below(1500)) / 100.0);
    }
    bson_append_document_end(doc, &daily);
    if (i % 300 == 41) {
        bson_t calibration;
        BSON_APPEND_DOCUMENT_BEGIN(doc, "calibration", &calibration);
        BSON_APPEND_DOUBLE(&calibration, "offset", -0.4);
        BSON_APPEND_DATE_TIME(&calibration, "at", kEpochMs);
        bson_append_document_end(doc, &calibration);
    }
    if (i == documents / 3 || i == documents - 7) {
        std::string blob(400 * 1024, '\0');
        for (char &c : blob)
            c = char(rng.below(256));
        BSON_APPEND_BINARY(doc, "diagnostics", BSON_SUBTYPE_BINARY,
                           reinterpret_cast<const std::uint8_t *>(blob.data()),
                           std::uint32_t(blob.size()));
    }
    if (i == documents / 4) {
        bson_t channels;
        BSON_APPEND_DOCUMENT_BEGIN(doc, "channels", &channels);
        for (int c = 0; c < 240; ++c)
            BSON_APPEND_INT32(&channels, ("ch" + std::to_string(1000 + c)).c_str(), c);
        bson_append_document_end(doc, &channels);
    }
    if (i == documents / 6) {
        // An array keeps bson_t's alignment (a std::vector<bson_t> would not promise it).
        constexpr std::size_t kLevels = 30;
        bson_t levels[kLevels];
        BSON_APPEND_DOCUMENT_BEGIN(doc, "config", &levels[0]);
        for (std::size_t l = 1; l < kLevels; ++l)
            BSON_APPEND_DOCUMENT_BEGIN(&levels[l - 1], "inner", &levels[l]);
        BSON_APPEND_BOOL(&levels[kLevels - 1], "enabled", true);
        for (std::size_t l = kLevels - 1; l > 0; --l)
            bson_append_document_end(&levels[l - 1], &levels[l]);
        bson_append_document_end(doc, &levels[0]);
    }
}

// Customer profiles of four schema versions side by side (the Schema Versioning pattern, a lazy
// migration under way): the oldest fifth without a schema_version; version 1 (an address
// string, a phone); version 2, a fifteenth (the address an object); version 3, 0.8 % just
// released (phones an array, an email, preferences, loyalty points). Real outliers within
// versions: a rare fax among the version 1 documents, a few version 2 documents with a string
// address left over, one version 3 document with its loyalty points as a string.
void customer(bson_t *doc, std::uint64_t i, std::uint64_t documents, SplitMix64 &rng)
{
    const std::uint64_t legacy = documents / 5, v3 = documents * 8 / 1000, v2 = documents / 15;
    const int version = i < legacy ? 0 : i >= documents - v3 ? 3 : i >= documents - v3 - v2 ? 2 : 1;
    BSON_APPEND_INT32(doc, "_id", std::int32_t(i + 1));
    if (version > 0)
        BSON_APPEND_INT32(doc, "schema_version", version);
    const std::string name = "Customer " + std::to_string(i + 1);
    BSON_APPEND_UTF8(doc, "name", name.c_str());
    const std::string street =
        std::to_string(1 + rng.below(200)) + " " + kWords[rng.below(kWordCount)] + " street";
    const char *city = kWords[rng.below(kWordCount)];
    if (version <= 1 || (version == 2 && i % 50 == 3)) {
        BSON_APPEND_UTF8(doc, "address", (street + ", " + city).c_str());
    } else {
        bson_t address;
        BSON_APPEND_DOCUMENT_BEGIN(doc, "address", &address);
        BSON_APPEND_UTF8(&address, "street", street.c_str());
        BSON_APPEND_UTF8(&address, "city", city);
        bson_append_document_end(doc, &address);
    }
    const std::string phone = "+33 1 " + std::to_string(10000000 + rng.below(89999999));
    if (version < 3) {
        BSON_APPEND_UTF8(doc, "phone", phone.c_str());
        if (version <= 1 && i % 400 == 7)
            BSON_APPEND_UTF8(doc, "fax", phone.c_str());
        return;
    }
    bson_t phones;
    BSON_APPEND_ARRAY_BEGIN(doc, "phones", &phones);
    BSON_APPEND_UTF8(&phones, "0", phone.c_str());
    bson_append_array_end(doc, &phones);
    const std::string email = "customer" + std::to_string(i + 1) + "@example.com";
    BSON_APPEND_UTF8(doc, "email", email.c_str());
    bson_t preferences;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "preferences", &preferences);
    BSON_APPEND_BOOL(&preferences, "newsletter", rng.below(2) == 0);
    bson_append_document_end(doc, &preferences);
    if (i == documents - 2)
        BSON_APPEND_UTF8(doc, "loyalty_points", "120");
    else
        BSON_APPEND_INT32(doc, "loyalty_points", std::int32_t(rng.below(5000)));
}

const FeedShape kDemoFeed{50, 500, 10000, 50000, true, 150, 600};
const FeedShape kBenchFeed{1, 16, 100, 800, false, 40, 160};

using Generator = void (*)(bson_t *, std::uint64_t, std::uint64_t, SplitMix64 &);

Generator generatorFor(const QString &name)
{
    if (name == QLatin1String("book_sales"))
        return [](bson_t *d, std::uint64_t i, std::uint64_t, SplitMix64 &r) { bookSale(d, i, r); };
    if (name == QLatin1String("activity_feeds"))
        return [](bson_t *d, std::uint64_t i, std::uint64_t n, SplitMix64 &r) {
            feedUser(d, i, n, r, kDemoFeed);
        };
    if (name == QLatin1String("feed_bench"))
        return [](bson_t *d, std::uint64_t i, std::uint64_t n, SplitMix64 &r) {
            feedUser(d, i, n, r, kBenchFeed);
        };
    if (name == QLatin1String("device_readings"))
        return
            [](bson_t *d, std::uint64_t i, std::uint64_t n, SplitMix64 &r) { device(d, i, n, r); };
    if (name == QLatin1String("customer_profiles"))
        return [](bson_t *d, std::uint64_t i, std::uint64_t n, SplitMix64 &r) {
            customer(d, i, n, r);
        };
    if (name == QLatin1String("product_catalogue"))
        return [](bson_t *d, std::uint64_t i, std::uint64_t, SplitMix64 &r) {
            demo::catalogueProduct(d, i, r);
        };
    if (name == QLatin1String("viral_posts"))
        return [](bson_t *d, std::uint64_t i, std::uint64_t n, SplitMix64 &r) { post(d, i, n, r); };
    return nullptr;
}

// A fixed string hash (qHash may differ between machines), so each dataset has its own stream.
std::uint64_t nameHash(const QString &name)
{
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : name.toUtf8()) {
        h ^= std::uint8_t(c);
        h *= 1099511628211ull;
    }
    return h;
}

} // namespace

QList<DemoDataGenerator::Dataset> DemoDataGenerator::datasets()
{
    return {
        {QStringLiteral("book_sales"),
         QStringLiteral(
             "book sales: customers_purchased arrays, 4% best sellers past the 50-buyer threshold"),
         2000, true},
        {QStringLiteral("activity_feeds"),
         QStringLiteral("user activity feeds: 99% with 50-500 entries, 1% with tens of thousands, "
                        "one near 16 MB"),
         300, true},
        {QStringLiteral("viral_posts"),
         QStringLiteral(
             "posts with embedded comments: a few each, some popular, one viral post with 120,000"),
         1000, true},
        {QStringLiteral("device_readings"),
         QStringLiteral("sensor readings by day (dates as keys), with a rare calibration, mixed "
                        "firmware and tag types, two binary diagnostics dumps, one device with "
                        "240 channels and one nested 30 levels deep"),
         1500, true},
        {QStringLiteral("customer_profiles"),
         QStringLiteral("customer profiles of schema versions 1 to 3 (and older ones without "
                        "one), a lazy migration under way: a rare fax in version 1, old string "
                        "addresses in version 2, loyalty points as a string once in version 3"),
         3000, true},
        {QStringLiteral("product_catalogue"),
         QStringLiteral("a product catalogue of eight categories, each with fifteen attributes "
                        "of its own as top-level fields (voltage, isbn, fabric...), six a "
                        "product: the attribute pattern's case, one sparse field family"),
         2000, true},
        {QStringLiteral("feed_bench"),
         QStringLiteral("benchmark shape: ~1 KB activity feeds, 1% with hundreds of entries"),
         100000, false},
    };
}

bool DemoDataGenerator::write(const QString &dataset, const QString &path, std::uint64_t documents,
                              std::uint64_t seed, QString *error)
{
    const Generator generate = generatorFor(dataset);
    if (!generate) {
        *error = QStringLiteral("unknown dataset '%1'").arg(dataset);
        return false;
    }
    if (documents == 0) {
        for (const auto &d : datasets())
            if (d.name == dataset)
                documents = d.defaultDocuments;
    }
    StagedOutput output;
    SourceError failure;
    QIODevice *file = output.add(path, &failure);
    if (!file) {
        *error = failure.toString();
        return false;
    }
    SplitMix64 rng(seed ^ nameHash(dataset));
    QByteArray buffer;
    buffer.reserve(8 << 20);
    for (std::uint64_t i = 0; i < documents; ++i) {
        BsonDocument doc;
        generate(doc.get(), i, documents, rng);
        buffer.append(doc.bytes());
        if (buffer.size() >= (4 << 20)) {
            if (!output.write(file, buffer, &failure))
                break;
            buffer.clear();
        }
    }
    if (failure.isError() || !output.write(file, buffer, &failure) ||
        !output.commit(nullptr, &failure)) {
        *error = failure.toString();
        return false;
    }
    return true;
}

bool DemoDataGenerator::writeDemo(const QString &directory, std::uint64_t seed,
                                  QStringList *written, QString *error)
{
    if (!QDir().mkpath(directory)) {
        *error = QStringLiteral("%1: cannot create directory").arg(directory);
        return false;
    }
    for (const auto &d : datasets()) {
        if (!d.inDemo)
            continue;
        const QString path = QDir(directory).filePath(d.name + QStringLiteral(".bson"));
        if (!write(d.name, path, 0, seed, error))
            return false;
        if (written)
            *written << path;
    }
    return true;
}

bool DemoDataGenerator::ensureDemo(const QString &directory, QStringList *files, QString *error)
{
    QStringList paths;
    bool complete = true;
    for (const auto &d : datasets()) {
        if (!d.inDemo)
            continue;
        paths << QDir(directory).filePath(d.name + QStringLiteral(".bson"));
        complete = complete && QFileInfo::exists(paths.last());
    }
    if (!complete && !writeDemo(directory, kDemoSeed, nullptr, error))
        return false;
    *files = paths;
    return true;
}

} // namespace oe
