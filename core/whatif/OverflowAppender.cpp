#include "whatif/OverflowAppender.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "whatif/internal/WhatIfCalls.h"

#include <bson/bson.h>

#include <string>

namespace oe {

namespace {

std::string utf8(const QString &s)
{
    return s.toStdString();
}

// {$size: {$ifNull: ["$<path>", []]}}
void appendSize(bson_t *d, const char *key, const std::string &path)
{
    const std::string ref = "$" + path;
    BCON_APPEND(d, key, "{", "$size", "{", "$ifNull", "[", BCON_UTF8(ref.c_str()), "[", "]", "]",
                "}", "}");
}

// Room in the document: {$and: [{$ne: ["$<flag>", true]}, {$ne: [<size>, keep]}]}.
void appendRoom(bson_t *d, const char *key, const SplitConfig &c)
{
    const std::string flag = "$" + utf8(c.flagField);
    bson_t all, notFlagged, notAtKeep, args;
    bson_append_document_begin(d, key, -1, &all);
    bson_append_array_begin(&all, "$and", -1, &args);
    bson_append_document_begin(&args, "0", 1, &notFlagged);
    BCON_APPEND(&notFlagged, "$ne", "[", BCON_UTF8(flag.c_str()), BCON_BOOL(true), "]");
    bson_append_document_end(&args, &notFlagged);
    bson_append_document_begin(&args, "1", 1, &notAtKeep);
    bson_t ne;
    bson_append_array_begin(&notAtKeep, "$ne", -1, &ne);
    appendSize(&ne, "0", utf8(c.field));
    BSON_APPEND_INT64(&ne, "1", c.keep);
    bson_append_array_end(&notAtKeep, &ne);
    bson_append_document_end(&args, &notAtKeep);
    bson_append_array_end(&all, &args);
    bson_append_document_end(d, &all);
}

// d[field] = {$cond: [<room>, <"1">, <"2">]}: `ifRoom` appends "1", `otherwise` "2".
template <typename IfRoom, typename Otherwise>
void appendCond(bson_t *d, const QString &field, const SplitConfig &c, const IfRoom &ifRoom,
                const Otherwise &otherwise)
{
    const std::string key = utf8(field);
    bson_t cond, args;
    bson_append_document_begin(d, key.c_str(), -1, &cond);
    bson_append_array_begin(&cond, "$cond", -1, &args);
    appendRoom(&args, "0", c);
    ifRoom(&args);
    otherwise(&args);
    bson_append_array_end(&cond, &args);
    bson_append_document_end(d, &cond);
}

// args["<key>"] = "$<field>"
auto self(const QString &field, const char *key)
{
    return [ref = "$" + utf8(field), key](bson_t *args) {
        bson_append_utf8(args, key, -1, ref.c_str(), -1);
    };
}

// The slot counter's update pipeline:
//   {$set: {C: {$add: [{$ifNull: ["$C", <size>]}, 1]}}},
//   {$set: {P: {$cond: [<room>, {$concatArrays: [{$ifNull: ["$P", []]}, [{$literal: e}]]}, "$P"]},
//           F: {$cond: [<room>, "$F", true]},
//           G: {$cond: [<room>, "$G", {$max: [{$ifNull: ["$G", 0]},
//                                             {$toLong: <1 + floor((C - keep - 1) / S)>}]}]}}}
// The second stage sees the incremented count, so an overflowing append's slot is C - keep - 1.
QByteArray slotPipeline(const SplitConfig &c, const QByteArray &element)
{
    BsonDocument stages;
    const std::string count = utf8(c.countField), countRef = "$" + count;
    const std::string path = "$" + utf8(c.field);
    bson_t first, set1, add, addArgs, ifNull;
    bson_append_document_begin(stages.get(), "0", 1, &first);
    bson_append_document_begin(&first, "$set", 4, &set1);
    bson_append_document_begin(&set1, count.c_str(), -1, &add);
    bson_append_array_begin(&add, "$add", 4, &addArgs);
    bson_append_document_begin(&addArgs, "0", 1, &ifNull);
    bson_t ifNullArgs;
    bson_append_array_begin(&ifNull, "$ifNull", -1, &ifNullArgs);
    BSON_APPEND_UTF8(&ifNullArgs, "0", countRef.c_str());
    appendSize(&ifNullArgs, "1", utf8(c.field));
    bson_append_array_end(&ifNull, &ifNullArgs);
    bson_append_document_end(&addArgs, &ifNull);
    BSON_APPEND_INT32(&addArgs, "1", 1);
    bson_append_array_end(&add, &addArgs);
    bson_append_document_end(&set1, &add);
    bson_append_document_end(&first, &set1);
    bson_append_document_end(stages.get(), &first);

    bson_t second, set2;
    bson_append_document_begin(stages.get(), "1", 1, &second);
    bson_append_document_begin(&second, "$set", 4, &set2);
    appendCond(
        &set2, c.field, c,
        [&](bson_t *args) {
            bson_t concat, parts, tail, literal;
            bson_append_document_begin(args, "1", 1, &concat);
            bson_append_array_begin(&concat, "$concatArrays", -1, &parts);
            BCON_APPEND(&parts, "0", "{", "$ifNull", "[", BCON_UTF8(path.c_str()), "[", "]", "]",
                        "}");
            bson_append_array_begin(&parts, "1", 1, &tail);
            bson_append_document_begin(&tail, "0", 1, &literal);
            bsonraw::append(&literal, "$literal", 8, element);
            bson_append_document_end(&tail, &literal);
            bson_append_array_end(&parts, &tail);
            bson_append_array_end(&concat, &parts);
            bson_append_document_end(args, &concat);
        },
        self(c.field, "2"));
    appendCond(&set2, c.flagField, c, self(c.flagField, "1"),
               [](bson_t *args) { BSON_APPEND_BOOL(args, "2", true); });
    if (!c.pagesField.isEmpty()) {
        const std::string pagesRef = "$" + utf8(c.pagesField);
        appendCond(&set2, c.pagesField, c, self(c.pagesField, "1"), [&](bson_t *args) {
            // 1 + floor((C - keep - 1) / S), as a long
            BCON_APPEND(args, "2", "{", "$max", "[", "{", "$ifNull", "[",
                        BCON_UTF8(pagesRef.c_str()), BCON_INT64(0), "]", "}", "{", "$toLong", "{",
                        "$add", "[", BCON_INT64(1), "{", "$floor", "{", "$divide", "[", "{",
                        "$subtract", "[", BCON_UTF8(countRef.c_str()), BCON_INT64(c.keep + 1), "]",
                        "}", BCON_INT64(c.pageSize), "]", "}", "}", "]", "}", "}", "]", "}");
        });
    }
    bson_append_document_end(&second, &set2);
    bson_append_document_end(stages.get(), &second);
    return stages.bytes();
}

QByteArray byId(const QByteArray &idValue)
{
    BsonDocument d;
    bsonraw::append(d.get(), "_id", 3, idValue);
    return d.bytes();
}

bool view(const QByteArray &bytes, bson_t *doc)
{
    return bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

// A top-level field of `doc`, as an iterator; false when absent.
bool find(const QByteArray &doc, const QString &field, bson_iter_t *it)
{
    bson_t d;
    const QByteArray key = field.toUtf8();
    return view(doc, &d) && bson_iter_init_find_w_len(it, &d, key.constData(), int(key.size()));
}

// d[key] = {op: value}, the key a name (never through BCON, which reads a leading bracket as
// structure).
void appendOp(bson_t *d, const std::string &key, const char *op, bool value)
{
    bson_t child;
    bson_append_document_begin(d, key.c_str(), int(key.size()), &child);
    bson_append_bool(&child, op, -1, value);
    bson_append_document_end(d, &child);
}

void appendOp(bson_t *d, const char *op, const std::string &key, std::int64_t value)
{
    bson_t child;
    bson_append_document_begin(d, op, -1, &child);
    bson_append_int64(&child, key.c_str(), int(key.size()), value);
    bson_append_document_end(d, &child);
}

SourceError noSuchDocument(const QString &collection, const QByteArray &idValue)
{
    SourceError e;
    e.kind = SourceError::Kind::Usage;
    BsonDocument d;
    bsonraw::append(d.get(), "_id", 3, idValue);
    char *json = bson_as_relaxed_extended_json(d.get(), nullptr);
    e.message = QStringLiteral("appending: no document %1 in %2")
                    .arg(QString::fromUtf8(json ? json : "?"), collection);
    bson_free(json);
    return e;
}

// The document while the legacy push may take an element: no flag, and fewer or more than
// `keep` elements: {_id: <id>, F: {$ne: true},
//                   $or: [{P.<keep-1>: {$exists: false}}, {P.<keep>: {$exists: true}}]}
// (with keep 0 only the second).
QByteArray legacyRoomFilter(const SplitConfig &c, const QByteArray &idValue)
{
    const std::string field = utf8(c.field), flag = utf8(c.flagField);
    BsonDocument filter;
    bsonraw::append(filter.get(), "_id", 3, idValue);
    appendOp(filter.get(), flag, "$ne", true);
    const std::string atKeep = field + "." + std::to_string(c.keep);
    if (c.keep > 0) {
        const std::string belowKeep = field + "." + std::to_string(c.keep - 1);
        bson_t either, below, above;
        bson_append_array_begin(filter.get(), "$or", 3, &either);
        bson_append_document_begin(&either, "0", 1, &below);
        appendOp(&below, belowKeep, "$exists", false);
        bson_append_document_end(&either, &below);
        bson_append_document_begin(&either, "1", 1, &above);
        appendOp(&above, atKeep, "$exists", true);
        bson_append_document_end(&either, &above);
        bson_append_array_end(filter.get(), &either);
    } else {
        appendOp(filter.get(), atKeep, "$exists", true);
    }
    return filter.bytes();
}

} // namespace

OverflowAppender::OverflowAppender(MongoConnection &connection, QString database,
                                   const SplitConfig &config)
    : m_calls(std::make_unique<WhatIfCalls>(connection, std::move(database))),
      m_config(config.withDefaults())
{
}

OverflowAppender::~OverflowAppender() = default;

// Once: one harmless pipeline update on {_id: {$exists: false}} (every document has an _id,
// so it matches nothing), refused by a server without update pipelines.
bool OverflowAppender::probe(SourceError *error)
{
    if (m_probed || m_protocol != Protocol::SlotCounter)
        return true;
    QByteArray none;
    SourceError refused;
    BsonDocument nothing;
    BCON_APPEND(nothing.get(), "_id", "{", "$exists", BCON_BOOL(false), "}");
    if (!m_calls->findAndModify(m_config.collection, nothing.bytes(),
                                slotPipeline(m_config, QByteArray("\x08\x00", 2)), {}, &none,
                                &refused)) {
        if (refused.serverCode == 0) { // a network failure: not a verdict on the server
            *error = refused;
            return false;
        }
        m_protocol = Protocol::Legacy;
        m_warning = QStringLiteral("the server refused an update pipeline (%1): appends use the "
                                   "legacy write path, four round trips and not safe against "
                                   "concurrent writers on a server that updates non-atomically")
                        .arg(refused.message);
    }
    m_probed = true;
    return true;
}

bool OverflowAppender::append(const QByteArray &idValue, const QByteArray &element, Path *path,
                              SourceError *error)
{
    if (!probe(error))
        return false;
    if (m_protocol == Protocol::Legacy)
        return appendLegacy(idValue, element, path, error);
    Reservation r;
    return reserve(idValue, element, &r, error) && complete(r, path, error);
}

bool OverflowAppender::reserve(const QByteArray &idValue, const QByteArray &element,
                               Reservation *reservation, SourceError *error)
{
    if (!probe(error))
        return false;
    if (m_protocol == Protocol::Legacy) {
        error->kind = SourceError::Kind::Usage;
        error->message = QStringLiteral("appending: the legacy write path takes no slot");
        return false;
    }
    *reservation = {idValue, element, false, 0};
    return takeSlot(idValue, element, &reservation->overflowed, &reservation->slot, error);
}

bool OverflowAppender::complete(const Reservation &r, Path *path, SourceError *error)
{
    if (!r.overflowed) {
        *path = Path::Document;
        return true;
    }
    const std::int64_t page = r.slot / m_config.pageSize;
    *path = r.slot % m_config.pageSize == 0 ? Path::NewPage : Path::Page;
    for (int attempt = 0; attempt < 3; ++attempt) {
        bool matched = false, duplicate = false;
        if (!pushToPage(r.idValue, page, r.element, true, &matched, &duplicate, error))
            return false;
        if (!duplicate)
            return true; // a duplicate key: another writer opened the page first, so it exists
    }
    error->kind = SourceError::Kind::Connection;
    error->message = QStringLiteral("appending: page %1 of %2 could not be written")
                         .arg(page)
                         .arg(m_config.overflowCollection);
    return false;
}

bool OverflowAppender::takeSlot(const QByteArray &idValue, const QByteArray &element,
                                bool *overflowed, std::int64_t *slot, SourceError *error)
{
    BsonDocument projection;
    const QByteArray count = m_config.countField.toUtf8(), flag = m_config.flagField.toUtf8();
    bson_append_int32(projection.get(), count.constData(), int(count.size()), 1);
    bson_append_int32(projection.get(), flag.constData(), int(flag.size()), 1);
    QByteArray after;
    if (!m_calls->findAndModify(m_config.collection, byId(idValue), slotPipeline(m_config, element),
                                projection.bytes(), &after, error))
        return false;
    if (after.isEmpty()) {
        *error = noSuchDocument(m_config.collection, idValue);
        return false;
    }
    bson_iter_t it;
    *overflowed =
        find(after, m_config.flagField, &it) && BSON_ITER_HOLDS_BOOL(&it) && bson_iter_bool(&it);
    if (*overflowed && find(after, m_config.countField, &it) && BSON_ITER_HOLDS_NUMBER(&it))
        *slot = bson_iter_as_int64(&it) - m_config.keep - 1;
    return true;
}

bool OverflowAppender::pushToPage(const QByteArray &idValue, std::int64_t page,
                                  const QByteArray &element, bool upsert, bool *matched,
                                  bool *duplicate, SourceError *error)
{
    BsonDocument filter, update;
    const QByteArray link = m_config.linkField.toUtf8(), pageKey = m_config.pageField.toUtf8();
    bsonraw::append(filter.get(), link.constData(), int(link.size()), idValue);
    bson_append_int64(filter.get(), pageKey.constData(), int(pageKey.size()), page);
    if (!upsert) { // into an existing page only while it has room
        appendOp(filter.get(),
                 utf8(m_config.itemsField) + "." + std::to_string(m_config.pageSize - 1), "$exists",
                 false);
    }
    bson_t push;
    bson_append_document_begin(update.get(), "$push", 5, &push);
    const QByteArray items = m_config.itemsField.toUtf8();
    bsonraw::append(&push, items.constData(), int(items.size()), element);
    bson_append_document_end(update.get(), &push);
    WhatIfCalls::Update r;
    if (!m_calls->updateOne(m_config.overflowCollection, filter.bytes(), update.bytes(), upsert, &r,
                            error))
        return false;
    *matched = r.matched == 1 || r.upserted;
    *duplicate = r.duplicateKey;
    return true;
}

// The four-round-trip path for servers without update pipelines. The document takes the
// element while it has no flag and does not hold exactly `keep` elements; else the last page is
// found (by sorting), the document gets the flag, the count (whoever finds no page yet also
// counts the `keep` elements) and page count, and the last page takes the element while it has
// room, or the next page is opened. Two writers that both find no page both count the `keep`
// elements: this path is for servers that lose concurrent appends anyway.
bool OverflowAppender::appendLegacy(const QByteArray &idValue, const QByteArray &element,
                                    Path *path, SourceError *error)
{
    bool pushed = false;
    if (!pushIntoDocument(idValue, element, &pushed, error))
        return false;
    if (pushed) {
        *path = Path::Document;
        return true;
    }
    std::int64_t counted = -1; // the page count the parent was given, once it was
    for (int attempt = 0; attempt < 20; ++attempt) {
        LastPage last;
        if (!findLastPage(idValue, &last, error))
            return false;
        const bool opens = last.none || last.held >= m_config.pageSize;
        const std::int64_t page = opens && !last.none ? last.page + 1 : last.page;
        // The parent first, so that no element goes to a page of a document that is not there;
        // once, with the page count raised again should a lost race move the element on.
        if (counted < 0 || page + 1 > counted) {
            if (!raiseCounters(idValue, counted < 0, last.none, page + 1, error))
                return false;
            counted = page + 1;
        }
        bool matched = false, duplicate = false;
        if (!pushToPage(idValue, page, element, opens, &matched, &duplicate, error))
            return false;
        if (duplicate || !matched)
            continue; // another writer opened or filled that page first
        *path = opens ? Path::NewPage : Path::Page;
        return true;
    }
    error->kind = SourceError::Kind::Connection;
    error->message = QStringLiteral("appending: lost the race for a page 20 times");
    return false;
}

// The guarded push: into the document while it has no flag and does not hold exactly `keep`
// elements; `pushed` says whether it matched.
bool OverflowAppender::pushIntoDocument(const QByteArray &idValue, const QByteArray &element,
                                        bool *pushed, SourceError *error)
{
    const std::string field = utf8(m_config.field);
    BsonDocument update;
    bson_t push;
    bson_append_document_begin(update.get(), "$push", 5, &push);
    bsonraw::append(&push, field.c_str(), int(field.size()), element);
    bson_append_document_end(update.get(), &push);
    WhatIfCalls::Update r;
    if (!m_calls->updateOne(m_config.collection, legacyRoomFilter(m_config, idValue),
                            update.bytes(), false, &r, error))
        return false;
    *pushed = r.matched == 1;
    return true;
}

// The document's overflow page with the highest number (by sorting), and how many elements it
// holds; `none` when it has no page yet.
bool OverflowAppender::findLastPage(const QByteArray &idValue, LastPage *lastPage,
                                    SourceError *error)
{
    const QByteArray link = m_config.linkField.toUtf8(), pageKey = m_config.pageField.toUtf8();
    BsonDocument byParent, newestFirst, pageOnly;
    bsonraw::append(byParent.get(), link.constData(), int(link.size()), idValue);
    bson_append_int32(newestFirst.get(), pageKey.constData(), int(pageKey.size()), -1);
    bson_append_int32(pageOnly.get(), pageKey.constData(), int(pageKey.size()), 1);
    const std::string items = utf8(m_config.itemsField);
    bson_append_int32(pageOnly.get(), items.c_str(), int(items.size()), 1);
    QByteArray last;
    if (!m_calls->findOne(m_config.overflowCollection, byParent.bytes(), newestFirst.bytes(),
                          pageOnly.bytes(), &last, error))
        return false;
    *lastPage = {};
    lastPage->none = last.isEmpty();
    bson_iter_t it, arr;
    if (!last.isEmpty() && find(last, m_config.pageField, &it))
        lastPage->page = bson_iter_as_int64(&it);
    if (!last.isEmpty() && find(last, m_config.itemsField, &it) && bson_iter_recurse(&it, &arr))
        while (bson_iter_next(&arr))
            ++lastPage->held;
    return true;
}

// The parent's counters: the first time (`first`) the flag and the count (by `keep` + 1 when
// `noPageYet`, else by 1), and every time the page count raised to at least `pages`.
bool OverflowAppender::raiseCounters(const QByteArray &idValue, bool first, bool noPageYet,
                                     std::int64_t pages, SourceError *error)
{
    BsonDocument counters;
    if (first) {
        const std::string flag = utf8(m_config.flagField);
        bson_t set;
        bson_append_document_begin(counters.get(), "$set", 4, &set);
        bson_append_bool(&set, flag.c_str(), int(flag.size()), true);
        bson_append_document_end(counters.get(), &set);
        appendOp(counters.get(), "$inc", utf8(m_config.countField),
                 noPageYet ? m_config.keep + 1 : 1);
    }
    if (!m_config.pagesField.isEmpty())
        appendOp(counters.get(), "$max", utf8(m_config.pagesField), pages);
    if (counters.bytes().size() <= 5) // an empty document: nothing to set
        return true;
    WhatIfCalls::Update r;
    if (!m_calls->updateOne(m_config.collection, byId(idValue), counters.bytes(), false, &r, error))
        return false;
    if (r.matched == 0) {
        *error = noSuchDocument(m_config.collection, idValue);
        return false;
    }
    return true;
}

} // namespace oe
