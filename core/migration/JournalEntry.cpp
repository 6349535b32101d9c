#include "migration/JournalEntry.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <QDateTime>

namespace oe {

namespace {

QString utf8(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    if (bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_UTF8(&it))
        return QString::fromUtf8(bson_iter_utf8(&it, nullptr));
    return {};
}

std::int64_t integer(const bson_t *doc, const char *key, std::int64_t fallback)
{
    bson_iter_t it;
    if (bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_NUMBER(&it))
        return bson_iter_as_int64(&it);
    return fallback;
}

void appendUtf8(bson_t *doc, const char *key, const QString &value)
{
    const QByteArray v = value.toUtf8();
    bson_append_utf8(doc, key, -1, v.constData(), int(v.size()));
}

} // namespace

QByteArray JournalEntry::idFilter(const QString &run, const std::string &rawId)
{
    BsonDocument owner;
    bson_t *doc = owner.get();
    bson_t id;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "_id", &id);
    appendUtf8(&id, "run", run);
    bsonraw::append(&id, "doc", 3, bsonraw::fromDocumentId(rawId));
    bson_append_document_end(doc, &id);
    return owner.bytes();
}

QByteArray JournalEntry::toBson() const
{
    BsonDocument owner;
    bson_t *doc = owner.get();
    bson_t id, original;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "_id", &id);
    appendUtf8(&id, "run", run);
    bsonraw::append(&id, "doc", 3, bsonraw::fromDocumentId(rawId));
    bson_append_document_end(doc, &id);
    BSON_APPEND_UTF8(doc, "kind", "document");
    appendUtf8(doc, "run", run);
    bsonraw::append(doc, "doc", 3, bsonraw::fromDocumentId(rawId));
    BSON_APPEND_INT64(doc, "length", std::int64_t(length));
    BSON_APPEND_BINARY(doc, "digest", BSON_SUBTYPE_BINARY,
                       reinterpret_cast<const std::uint8_t *>(digest.constData()),
                       std::uint32_t(digest.size()));
    BSON_APPEND_UTF8(doc, "state", journalWord(state));
    BSON_APPEND_DOCUMENT_BEGIN(doc, "original", &original);
    bsonraw::append(&original, "flag", 4, originalFlag);
    bsonraw::append(&original, "count", 5, originalCount);
    bsonraw::append(&original, "pages", 5, originalPages);
    bson_append_document_end(doc, &original);
    return owner.bytes();
}

bool JournalEntry::fromBson(const QByteArray &bytes, JournalEntry *entry)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())))
        return false;
    if (utf8(&doc, "kind") != QLatin1String("document"))
        return false;
    entry->run = utf8(&doc, "run");
    const auto state = entryStateFrom(utf8(&doc, "state"));
    if (!state)
        return false;
    entry->state = *state;
    entry->length = std::uint64_t(integer(&doc, "length", 0));
    bson_iter_t it;
    if (!bson_iter_init_find(&it, &doc, "doc"))
        return false;
    entry->rawId = bsonraw::toDocumentId(bsonraw::valueOf(&it));
    if (bson_iter_init_find(&it, &doc, "digest") && BSON_ITER_HOLDS_BINARY(&it)) {
        bson_subtype_t subtype;
        std::uint32_t len = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_binary(&it, &subtype, &len, &data);
        entry->digest = QByteArray(reinterpret_cast<const char *>(data), qsizetype(len));
    }
    entry->originalFlag.clear();
    entry->originalCount.clear();
    entry->originalPages.clear();
    bson_iter_t original;
    if (bson_iter_init_find(&it, &doc, "original") && BSON_ITER_HOLDS_DOCUMENT(&it) &&
        bson_iter_recurse(&it, &original)) {
        while (bson_iter_next(&original)) {
            const std::string_view key = bson_iter_key(&original);
            if (key == "flag")
                entry->originalFlag = bsonraw::valueOf(&original);
            else if (key == "count")
                entry->originalCount = bsonraw::valueOf(&original);
            else if (key == "pages")
                entry->originalPages = bsonraw::valueOf(&original);
        }
    }
    return !entry->run.isEmpty();
}

std::optional<std::uint64_t> JournalEntry::recordedDocuments(const QByteArray &bytes)
{
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())) ||
        !bson_iter_init_find(&it, &doc, "documents") || !BSON_ITER_HOLDS_INT64(&it) ||
        bson_iter_int64(&it) < 0)
        return std::nullopt;
    return std::uint64_t(bson_iter_int64(&it));
}

QString JournalEntry::stateWordOf(const QByteArray &bytes)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())))
        return {};
    return utf8(&doc, "state");
}

std::optional<QString> JournalEntry::writerOf(const QByteArray &bytes)
{
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())) ||
        !bson_iter_init_find(&it, &doc, "writer") || !BSON_ITER_HOLDS_UTF8(&it))
        return std::nullopt;
    return QString::fromUtf8(bson_iter_utf8(&it, nullptr));
}

QString JournalEntry::runFieldOf(const QByteArray &bytes)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())))
        return {};
    return utf8(&doc, "run");
}

QByteArray JournalEntry::runDocument(const SplitConfig &c, RunState state,
                                     std::optional<std::uint64_t> documents,
                                     const std::optional<QString> &writer)
{
    BsonDocument owner;
    bson_t *doc = owner.get();
    appendUtf8(doc, "_id", QStringLiteral("run:") + c.field);
    BSON_APPEND_UTF8(doc, "kind", "run");
    appendUtf8(doc, "run", c.field);
    BSON_APPEND_UTF8(doc, "state", journalWord(state));
    if (documents)
        BSON_APPEND_INT64(doc, "documents", std::int64_t(*documents));
    if (writer)
        appendUtf8(doc, "writer", *writer);
    BSON_APPEND_DATE_TIME(doc, "updated", QDateTime::currentMSecsSinceEpoch());
    bson_t config;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "config", &config);
    appendUtf8(&config, "collection", c.collection);
    appendUtf8(&config, "field", c.field);
    BSON_APPEND_INT64(&config, "keep", c.keep);
    BSON_APPEND_INT64(&config, "pageSize", c.pageSize);
    appendUtf8(&config, "overflowCollection", c.overflowCollection);
    appendUtf8(&config, "linkField", c.linkField);
    appendUtf8(&config, "pageField", c.pageField);
    appendUtf8(&config, "itemsField", c.itemsField);
    appendUtf8(&config, "flagField", c.flagField);
    appendUtf8(&config, "countField", c.countField);
    appendUtf8(&config, "pagesField", c.pagesField);
    appendUtf8(&config, "filter", c.filter);
    bson_append_document_end(doc, &config);
    return owner.bytes();
}

namespace {

// The run document's config, each field of the type runDocument writes; else the problem.
QString configProblem(const bson_t *config)
{
    bson_iter_t it;
    for (const char *key : {"keep", "pageSize"})
        if (!bson_iter_init_find(&it, config, key) ||
            !(BSON_ITER_HOLDS_INT32(&it) || BSON_ITER_HOLDS_INT64(&it)))
            return QStringLiteral("config.%1 is missing or not an integer").arg(QLatin1String(key));
    for (const char *key : {"collection", "field", "overflowCollection", "linkField", "pageField",
                            "itemsField", "flagField", "countField", "pagesField", "filter"})
        if (!bson_iter_init_find(&it, config, key) || !BSON_ITER_HOLDS_UTF8(&it))
            return QStringLiteral("config.%1 is missing or not a string").arg(QLatin1String(key));
    return {};
}

} // namespace

bool JournalEntry::configFromRunDocument(const QByteArray &bytes, SplitConfig *c, RunState *state,
                                         QString *problem)
{
    QString ignored;
    if (!problem)
        problem = &ignored;
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())))
        return false;
    bson_iter_t it;
    if (!bson_iter_init_find(&it, &doc, "config") || !BSON_ITER_HOLDS_DOCUMENT(&it))
        return false;
    std::uint32_t len = 0;
    const std::uint8_t *data = nullptr;
    bson_iter_document(&it, &len, &data);
    bson_t config;
    if (!bson_init_static(&config, data, len))
        return false;
    if (*problem = configProblem(&config); !problem->isEmpty())
        return false;
    c->collection = utf8(&config, "collection");
    c->field = utf8(&config, "field");
    c->keep = integer(&config, "keep", 0);
    c->pageSize = integer(&config, "pageSize", 1);
    c->overflowCollection = utf8(&config, "overflowCollection");
    c->linkField = utf8(&config, "linkField");
    c->pageField = utf8(&config, "pageField");
    c->itemsField = utf8(&config, "itemsField");
    c->flagField = utf8(&config, "flagField");
    c->countField = utf8(&config, "countField");
    c->pagesField = utf8(&config, "pagesField");
    c->filter = utf8(&config, "filter");
    const auto recorded = runStateFrom(utf8(&doc, "state"));
    if (!recorded) {
        *problem =
            QStringLiteral("its state '%1' is not one this version knows").arg(utf8(&doc, "state"));
        return false;
    }
    if (const QStringList problems = c->withDefaults().problems(); !problems.isEmpty()) {
        *problem = QStringLiteral("its config says: ") + problems.join(QStringLiteral("; "));
        return false;
    }
    *state = *recorded;
    return true;
}

} // namespace oe
