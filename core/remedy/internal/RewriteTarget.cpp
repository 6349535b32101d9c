#include "remedy/internal/RewriteTarget.h"

#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/internal/FieldsDocument.h"
#include "remedy/internal/RewriteJournal.h"

#include <string>

namespace oe {

namespace {

using bsonraw::view;

// The raw value at the dotted `path` of a document (through sub-documents only), or empty.
QByteArray valueAt(const bson_t *doc, const QByteArray &path)
{
    bson_iter_t it, found;
    if (!bson_iter_init(&it, doc) || !bson_iter_find_descendant(&it, path.constData(), &found))
        return {};
    return bsonraw::valueOf(&found);
}

QByteArray idOf(const bson_t *doc)
{
    bson_iter_t it;
    return bson_iter_init_find(&it, doc, "_id") ? bsonraw::valueOf(&it) : QByteArray();
}

// The path (and an extraction's flag), and with `sizeKey` each document's size ($bsonSize).
QByteArray projection(const QByteArray &path, const QByteArray &flag = {},
                      const QByteArray &sizeKey = {})
{
    BsonDocument opts;
    bson_t fields, size;
    bson_append_document_begin(opts.get(), "projection", -1, &fields);
    bson_append_int32(&fields, path.constData(), int(path.size()), 1);
    if (!flag.isEmpty())
        bson_append_int32(&fields, flag.constData(), int(flag.size()), 1);
    if (!sizeKey.isEmpty()) {
        bson_append_document_begin(&fields, sizeKey.constData(), int(sizeKey.size()), &size);
        bson_append_utf8(&size, "$bsonSize", -1, "$$ROOT", -1);
        bson_append_document_end(&fields, &size);
    }
    bson_append_document_end(opts.get(), &fields);
    return opts.bytes();
}

// A Fields remedy's touched fields: those it moves and those it makes.
QByteArray fieldsProjection(const QStringList &names)
{
    BsonDocument opts;
    bson_t fields;
    bson_append_document_begin(opts.get(), "projection", -1, &fields);
    for (const QString &name : names) {
        const QByteArray key = name.toUtf8();
        bson_append_int32(&fields, key.constData(), int(key.size()), 1);
    }
    bson_append_document_end(opts.get(), &fields);
    return opts.bytes();
}

} // namespace

RewriteTarget::RewriteTarget(MongoConnection &connection, const QString &database,
                             const RewriteConfig &config, bool simpleCollation, bool exactGuards)
    : m_ops(connection, database, config.collection), m_config(config),
      m_remedy(RemedyRegistry::of(config.kind)), m_flag(m_remedy.flagField(config).toUtf8()),
      m_simpleCollation(simpleCollation), m_exactGuards(exactGuards)
{
}

bool RewriteTarget::wholeDocuments() const
{
    return m_remedy.unit() == Remedy::Unit::Fields;
}

QStringList RewriteTarget::touchedNames() const
{
    return m_remedy.movedFields(m_config) + m_remedy.madeFields(m_config);
}

QByteArray RewriteTarget::scanFilter() const
{
    return m_remedy.scanFilter(m_config);
}

bool RewriteTarget::scan(std::size_t batch, const std::atomic<bool> *cancel,
                         const std::function<bool(std::vector<Scanned> &)> &visit,
                         SourceError *error, Sizes sizes)
{
    const QByteArray path = m_config.path.toUtf8();
    // The size's name in the projection: never the path's own first name.
    const QByteArray sizeKey = path.split('.').constFirst() == "oe_document_bytes"
                                   ? QByteArray("oe_document_bytes_")
                                   : QByteArray("oe_document_bytes");
    // A Fields remedy's value is the whole document (read whole: its size is known).
    const bool whole = wholeDocuments();
    if (whole)
        sizes = Sizes::Whole;
    std::vector<Scanned> pending;
    qsizetype held = 0; // bytes of the values pending
    bool stopped = false;
    const bool read = m_ops.find(
        scanFilter(),
        sizes == Sizes::Whole    ? QByteArray()
        : sizes == Sizes::Server ? projection(path, {}, sizeKey)
                                 : projection(path),
        QStringLiteral("reading the documents with %1").arg(m_config.path),
        [&](const QByteArray &bytes) {
            bson_t doc;
            bson_iter_t it;
            if (!view(bytes, &doc))
                return true;
            pending.push_back({idOf(&doc),
                               whole ? FieldsDocument::rawOfDocument(bytes) : valueAt(&doc, path),
                               0});
            if (sizes == Sizes::Whole)
                pending.back().documentBytes = std::uint64_t(bytes.size());
            else if (sizes == Sizes::Server && bson_iter_init_find(&it, &doc, sizeKey.constData()))
                pending.back().documentBytes = std::uint64_t(bson_iter_as_int64(&it));
            held += pending.back().value.size();
            if (pending.size() < batch && held < RewriteJournal::kRoundBytes)
                return true;
            held = 0;
            stopped = !visit(pending) || (cancel && cancel->load());
            pending.clear();
            return !stopped;
        },
        error);
    if (!read || error->isError())
        return false;
    if (!stopped && !pending.empty())
        return visit(pending);
    return true;
}

bool RewriteTarget::valuesOf(const std::vector<QByteArray> &ids, Values *values, SourceError *error,
                             std::map<QByteArray, FlagState> *flagged)
{
    const QByteArray path = m_config.path.toUtf8();
    const QByteArray &flag = m_flag;
    for (const QByteArray &id : ids)
        (*values)[id] = std::nullopt;
    if (wholeDocuments())
        return m_ops.find(
            bsonraw::idsIn(ids), fieldsProjection(touchedNames()),
            QStringLiteral("reading back the fields of %1").arg(m_config.describe()),
            [&](const QByteArray &bytes) {
                bson_t doc;
                if (view(bytes, &doc))
                    (*values)[idOf(&doc)] = touched(FieldsDocument::rawOfDocument(bytes));
                return true;
            },
            error);
    return m_ops.find(
        bsonraw::idsIn(ids), projection(path, flag),
        QStringLiteral("reading back the values of %1").arg(m_config.path),
        [&](const QByteArray &bytes) {
            bson_t doc;
            bson_iter_t it;
            if (!view(bytes, &doc))
                return true;
            (*values)[idOf(&doc)] = valueAt(&doc, path);
            if (flagged && !flag.isEmpty() && bson_iter_init_find(&it, &doc, flag.constData()))
                (*flagged)[idOf(&doc)] = BSON_ITER_HOLDS_BOOL(&it) && bson_iter_bool(&it)
                                             ? FlagState::True
                                             : FlagState::Other;
            return true;
        },
        error);
}

bool RewriteTarget::flagMoved(FlagState flag, bool forward) const
{
    // An extraction's guard holds the flag too: a document whose flag an application set (or
    // took away) is the application's, never written again.
    if (m_flag.isEmpty())
        return false;
    return forward ? flag != FlagState::Absent : flag != FlagState::True;
}

RewriteTarget::Landed RewriteTarget::changed(FlagState flag, bool forward) const
{
    if (m_flag.isEmpty())
        return Landed::ChangedSince;
    // Going forward, a flag set means the update landed (its excerpt edited since, or edited
    // before a killed run could mark it): the side value is the one the flag points to.
    if (forward)
        return flag == FlagState::True ? Landed::Done : Landed::ChangedSince;
    return flag == FlagState::True ? Landed::ChangedSince : Landed::ChangedUnflagged;
}

void RewriteTarget::guardFlag(bson_t *filter, bool forward) const
{
    if (m_flag.isEmpty())
        return;
    const QByteArray &flag = m_flag;
    bson_t condition;
    bson_append_document_begin(filter, flag.constData(), int(flag.size()), &condition);
    if (forward)
        bson_append_bool(&condition, "$exists", -1, false);
    else
        bson_append_bool(&condition, "$eq", -1, true);
    bson_append_document_end(filter, &condition);
}

QByteArray RewriteTarget::updateOf(const Move &move, bool forward) const
{
    const QByteArray path = m_config.path.toUtf8();
    const QByteArray &flag = m_flag;
    const bool extract = !m_flag.isEmpty();
    BsonDocument update;
    bson_t set;
    bson_append_document_begin(update.get(), "$set", -1, &set);
    bsonraw::append(&set, path.constData(), int(path.size()), move.to);
    if (extract && forward)
        bson_append_bool(&set, flag.constData(), int(flag.size()), true);
    bson_append_document_end(update.get(), &set);
    if (extract && !forward) {
        bson_t unset;
        bson_append_document_begin(update.get(), "$unset", -1, &unset);
        bson_append_utf8(&unset, flag.constData(), int(flag.size()), "", 0);
        bson_append_document_end(update.get(), &unset);
    }
    return update.bytes();
}

QByteArray RewriteTarget::writeOptions() const
{
    if (!m_simpleCollation)
        return {};
    BsonDocument opts;
    bson_t collation;
    bson_append_document_begin(opts.get(), "collation", -1, &collation);
    bson_append_utf8(&collation, "locale", -1, "simple", -1);
    bson_append_document_end(opts.get(), &collation);
    return opts.bytes();
}

void RewriteTarget::appendGuard(bson_t *filter, const QByteArray &path, const QByteArray &from,
                                ExactMatch *exact)
{
    const int type = int(std::uint8_t(from.at(0)));
    bson_t condition;
    bson_append_document_begin(filter, path.constData(), int(path.size()), &condition);
    if (type == BSON_TYPE_UNDEFINED) {
        // The server refuses to compare with undefined ("cannot compare to undefined"); the
        // type alone is the value (it has no bytes of its own).
        bson_append_int32(&condition, "$type", -1, type);
        bson_t no;
        bson_append_document_begin(&condition, "$not", -1, &no);
        bson_append_utf8(&no, "$type", -1, "array", -1);
        bson_append_document_end(&condition, &no);
        bson_append_document_end(filter, &condition);
        return;
    }
    if (exact)
        exact->add("$" + path, from);
    bsonraw::append(&condition, "$eq", 3, from);
    if (type == BSON_TYPE_ARRAY) {
        // {$eq: [..]} also matches an array holding it as an element: its length too.
        bson_iter_t it, child;
        BsonDocument holder;
        std::int32_t length = 0;
        if (bsonraw::append(holder.get(), "v", 1, from) &&
            bson_iter_init_find(&it, holder.get(), "v") && bson_iter_recurse(&it, &child))
            while (bson_iter_next(&child))
                ++length;
        bson_append_int32(&condition, "$size", -1, length);
    } else {
        // {$eq: v, $type: t} also match an array holding v: not an array.
        bson_t no;
        bson_append_int32(&condition, "$type", -1, type);
        bson_append_document_begin(&condition, "$not", -1, &no);
        bson_append_utf8(&no, "$type", -1, "array", -1);
        bson_append_document_end(&condition, &no);
    }
    bson_append_document_end(filter, &condition);
}

bool RewriteTarget::write(const std::vector<Move> &moves, bool forward, SourceError *error)
{
    if (wholeDocuments())
        return forward ? writeFields(moves, error) : restoreFields(moves, error);
    const QByteArray path = m_config.path.toUtf8();
    const QByteArray options = writeOptions();
    std::vector<CollectionOps::Write> writes;
    for (const Move &move : moves) {
        if (move.from.isEmpty() || move.to.isEmpty())
            continue; // no value to guard on: never written
        BsonDocument filter;
        ExactMatch exact;
        bsonraw::append(filter.get(), "_id", 3, move.id);
        appendGuard(filter.get(), path, move.from, m_exactGuards ? &exact : nullptr);
        guardFlag(filter.get(), forward);
        exact.appendTo(filter.get());
        writes.push_back({CollectionOps::Write::Kind::UpdateOne, filter.bytes(),
                          updateOf(move, forward), 1, options});
    }
    return send(writes, QStringLiteral("rewriting %1").arg(m_config.path), error);
}

std::vector<RewriteTarget::Landed> RewriteTarget::settle(const std::vector<Move> &moves,
                                                         bool forward, SourceError *error)
{
    std::vector<Landed> landed(moves.size(), Landed::ChangedSince);
    std::vector<std::size_t> open(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i)
        open[i] = i;
    for (int round = 0; round < kMaxRounds && !open.empty(); ++round) {
        if (!m_exactGuards) {
            open = precheck(moves, open, forward, &landed, error);
            if (error->isError())
                return {};
            if (open.empty())
                break;
        }
        std::vector<Move> writes;
        std::vector<QByteArray> ids;
        for (std::size_t i : open) {
            writes.push_back(moves[i]);
            ids.push_back(moves[i].id);
        }
        Values values;
        std::map<QByteArray, FlagState> flagged;
        if (!write(writes, forward, error) || !valuesOf(ids, &values, error, &flagged))
            return {};
        std::vector<std::size_t> again;
        for (std::size_t i : open) {
            bool retry = false;
            landed[i] =
                landedOf(moves[i], values[moves[i].id], flagged[moves[i].id], forward, &retry);
            if (retry)
                again.push_back(i); // its update did not land yet (a racing write came and went)
        }
        open = std::move(again);
    }
    for (std::size_t i : open)
        landed[i] = Landed::Stuck;
    return landed;
}

RewriteTarget::Landed RewriteTarget::landedOf(const Move &move,
                                              const std::optional<QByteArray> &now, FlagState flag,
                                              bool forward, bool *again) const
{
    *again = false;
    if (!now)
        return Landed::Deleted;
    if (*now == touched(move.to))
        return Landed::Done;
    if (*now != touched(move.from))
        return changed(flag, forward);
    if (flagMoved(flag, forward))
        return Landed::ChangedSince; // the application's flag
    *again = true;
    return Landed::Stuck;
}

std::vector<std::size_t> RewriteTarget::precheck(const std::vector<Move> &moves,
                                                 const std::vector<std::size_t> &open, bool forward,
                                                 std::vector<Landed> *landed, SourceError *error)
{
    std::vector<QByteArray> ids;
    for (std::size_t i : open)
        ids.push_back(moves[i].id);
    Values values;
    std::map<QByteArray, FlagState> flagged;
    if (!valuesOf(ids, &values, error, &flagged))
        return {};
    std::vector<std::size_t> toWrite;
    for (std::size_t i : open) {
        bool holdsFrom = false;
        (*landed)[i] =
            landedOf(moves[i], values[moves[i].id], flagged[moves[i].id], forward, &holdsFrom);
        if (holdsFrom)
            toWrite.push_back(i);
    }
    return toWrite;
}

QByteArray RewriteTarget::touched(const QByteArray &value) const
{
    return wholeDocuments() ? FieldsDocument::touched(touchedNames(), value) : value;
}

// Forward: the fields the remedy moves that the document holds out, the fields it makes in
// (appended: new fields), guarded on every touched field (its value and type as read, or its
// absence), so the update lands only on the document as read.
bool RewriteTarget::writeFields(const std::vector<Move> &moves, SourceError *error)
{
    std::vector<CollectionOps::Write> writes;
    for (const Move &move : moves) {
        const QByteArray from = FieldsDocument::documentOfRaw(touched(move.from));
        const QByteArray to = FieldsDocument::documentOfRaw(move.to);
        bson_t held, after;
        bson_iter_t it;
        if (!view(from, &held) || !view(to, &after) || !bson_iter_init(&it, &after))
            continue;
        BsonDocument filter, update;
        ExactMatch exact;
        bsonraw::append(filter.get(), "_id", 3, move.id);
        bson_t unset, set, absent;
        bson_append_document_begin(update.get(), "$unset", -1, &unset);
        for (const QString &field : touchedNames()) {
            const QByteArray name = field.toUtf8();
            if (bson_iter_init_find(&it, &held, name.constData())) {
                appendGuard(filter.get(), name, bsonraw::valueOf(&it),
                            m_exactGuards ? &exact : nullptr);
                bson_append_utf8(&unset, name.constData(), int(name.size()), "", 0);
                continue;
            }
            bson_append_document_begin(filter.get(), name.constData(), int(name.size()), &absent);
            bson_append_bool(&absent, "$exists", -1, false);
            bson_append_document_end(filter.get(), &absent);
        }
        exact.appendTo(filter.get());
        bson_append_document_end(update.get(), &unset);
        bson_append_document_begin(update.get(), "$set", -1, &set);
        bson_iter_init(&it, &after);
        while (bson_iter_next(&it))
            bson_append_iter(&set, bson_iter_key(&it), int(bson_iter_key_len(&it)), &it);
        bson_append_document_end(update.get(), &set);
        writes.push_back({CollectionOps::Write::Kind::UpdateOne, filter.bytes(), update.bytes(), 1,
                          writeOptions()});
    }
    return send(writes, QStringLiteral("rewriting %1").arg(m_config.describe()), error);
}

// Back: each document replaced by itself with the fields where they stood (FieldsDocument::
// restored), so a document nobody wrote since is byte for byte what it was. The replacement
// lands only on the document as read: whole ($expr on $$ROOT) where the server has it and the
// document is small enough to send twice, else its array and the fields' absence.
bool RewriteTarget::restoreFields(const std::vector<Move> &moves, SourceError *error)
{
    std::vector<QByteArray> ids;
    for (const Move &move : moves)
        ids.push_back(move.id);
    std::map<QByteArray, QByteArray> current;
    if (!m_ops.find(
            bsonraw::idsIn(ids), {},
            QStringLiteral("reading the documents to put back the fields of %1").arg(m_config.path),
            [&](const QByteArray &bytes) {
                bson_t doc;
                if (view(bytes, &doc))
                    current[idOf(&doc)] = bytes;
                return true;
            },
            error))
        return false;
    constexpr qsizetype kWholeGuardBytes = 7 * 1024 * 1024;
    constexpr qsizetype kCommandBytes = 15 * 1024 * 1024; // under the server's 16 MiB
    std::vector<CollectionOps::Write> writes;
    for (const Move &move : moves) {
        const auto found = current.find(move.id);
        if (found == current.end())
            continue; // deleted: the read-back says so
        const QByteArray raw = FieldsDocument::rawOfDocument(found->second);
        if (touched(raw) != touched(move.from))
            continue; // the application's since: kept
        const QByteArray replacement = FieldsDocument::restored(
            m_remedy.movedFields(m_config), m_remedy.madeFields(m_config), move.to, raw);
        // The whole document's guard where it fits in one command beside the replacement.
        QByteArray filter = m_exactGuards && found->second.size() <= kWholeGuardBytes
                                ? wholeGuard(move.id, raw)
                                : QByteArray();
        if (filter.isEmpty() || filter.size() + replacement.size() > kCommandBytes)
            filter = partGuard(move);
        writes.push_back(
            {CollectionOps::Write::Kind::ReplaceOne, filter, replacement, 1, writeOptions()});
    }
    return send(writes, QStringLiteral("putting back the fields of %1").arg(m_config.path), error);
}

bool RewriteTarget::send(const std::vector<CollectionOps::Write> &writes, const QString &step,
                         SourceError *error)
{
    if (writes.empty())
        return true;
    if (m_beforeWrite) {
        std::vector<QByteArray> ids;
        for (const CollectionOps::Write &w : writes)
            ids.push_back(bsonraw::idOf(w.filter));
        m_beforeWrite(ids);
    }
    return m_ops.bulk(writes, step, error);
}

// {_id, $expr: {$and: [{$eq: ["$$ROOT", {$literal: doc}]}, its bytes' proof...]}}: the
// document exactly as read.
QByteArray RewriteTarget::wholeGuard(const QByteArray &id, const QByteArray &raw)
{
    BsonDocument filter;
    bsonraw::append(filter.get(), "_id", 3, id);
    ExactMatch exact;
    exact.add("$$ROOT", raw);
    bson_t expr, all, first, eq, literal;
    int index = 0;
    bson_append_document_begin(filter.get(), "$expr", -1, &expr);
    bson_append_array_begin(&expr, "$and", -1, &all);
    bson_append_document_begin(&all, std::to_string(index++).c_str(), -1, &first);
    bson_append_array_begin(&first, "$eq", -1, &eq);
    bson_append_utf8(&eq, "0", -1, "$$ROOT", -1);
    bson_append_document_begin(&eq, "1", -1, &literal);
    bsonraw::append(&literal, "$literal", -1, raw);
    bson_append_document_end(&eq, &literal);
    bson_append_array_end(&first, &eq);
    bson_append_document_end(&all, &first);
    exact.appendConditionsTo(&all, &index);
    bson_append_array_end(&expr, &all);
    bson_append_document_end(filter.get(), &expr);
    return filter.bytes();
}

// {_id, <each field made>: as written (its bytes, where the server proves them), <each field
// moved>: absent}: the part of the document the rewrite wrote, for a document too large to send
// twice.
QByteArray RewriteTarget::partGuard(const Move &move) const
{
    BsonDocument filter;
    ExactMatch exact;
    bsonraw::append(filter.get(), "_id", 3, move.id);
    bson_t held, absent;
    bson_iter_t it;
    const QByteArray from = FieldsDocument::documentOfRaw(touched(move.from));
    const bool read = view(from, &held);
    for (const QString &field : m_remedy.madeFields(m_config)) {
        const QByteArray name = field.toUtf8();
        if (read && bson_iter_init_find(&it, &held, name.constData()))
            appendGuard(filter.get(), name, bsonraw::valueOf(&it),
                        m_exactGuards ? &exact : nullptr);
    }
    for (const QString &field : m_remedy.movedFields(m_config)) {
        const QByteArray name = field.toUtf8();
        bson_append_document_begin(filter.get(), name.constData(), int(name.size()), &absent);
        bson_append_bool(&absent, "$exists", -1, false);
        bson_append_document_end(filter.get(), &absent);
    }
    exact.appendTo(filter.get());
    return filter.bytes();
}

bool RewriteTarget::ensureIndex(bool *created, SourceError *error)
{
    return m_ops.ensureIndex(m_config.indexKeys(),
                             QStringLiteral("creating the index on %1").arg(m_config.path), created,
                             error);
}

bool RewriteTarget::dropIndex(const QString &name, SourceError *error)
{
    return m_ops.dropIndex(name, QStringLiteral("dropping the index %1").arg(name), error);
}

} // namespace oe
