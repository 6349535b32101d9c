#include "remedy/internal/RewriteTarget.h"

#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
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

} // namespace

RewriteTarget::RewriteTarget(MongoConnection &connection, const QString &database,
                             const RewriteConfig &config, bool simpleCollation)
    : m_ops(connection, database, config.collection), m_config(config),
      m_simpleCollation(simpleCollation)
{
}

QByteArray RewriteTarget::scanFilter() const
{
    const QByteArray path = m_config.path.toUtf8();
    BsonDocument filter;
    bson_t condition;
    bson_append_document_begin(filter.get(), path.constData(), int(path.size()), &condition);
    if (m_config.kind == RewriteKind::Extract) {
        // Every value (what is not a string, a binary or a sub-document is listed), but not in
        // a document with the flag: extracted already, or the name is the document's own.
        bson_append_bool(&condition, "$exists", -1, true);
        bson_append_document_end(filter.get(), &condition);
        guardFlag(filter.get(), true);
        return filter.bytes();
    }
    if (m_config.kind == RewriteKind::GridFs) {
        // The binaries (and strings) only: a file id left by a run is not read again.
        bson_t types, no;
        bson_append_array_begin(&condition, "$type", -1, &types);
        bson_append_utf8(&types, "0", -1, "binData", -1);
        if (m_config.gridfsStrings)
            bson_append_utf8(&types, "1", -1, "string", -1);
        bson_append_array_end(&condition, &types);
        bson_append_document_begin(&condition, "$not", -1, &no);
        bson_append_utf8(&no, "$type", -1, "array", -1);
        bson_append_document_end(&condition, &no);
    } else if (m_config.kind == RewriteKind::KeysToArray) {
        // An array of sub-documents matches {$type: "object"} too (by its elements).
        bson_t no;
        bson_append_utf8(&condition, "$type", -1, "object", -1);
        bson_append_document_begin(&condition, "$not", -1, &no);
        bson_append_utf8(&no, "$type", -1, "array", -1);
        bson_append_document_end(&condition, &no);
    } else {
        bson_append_bool(&condition, "$exists", -1, true);
        bson_t no, types;
        bson_append_document_begin(&condition, "$not", -1, &no);
        bson_append_array_begin(&no, "$type", -1, &types);
        bsonraw::appendText(&types, "0", m_config.targetType);
        bson_append_utf8(&types, "1", -1, "null", -1);
        bson_append_array_end(&no, &types);
        bson_append_document_end(&condition, &no);
    }
    bson_append_document_end(filter.get(), &condition);
    return filter.bytes();
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
            pending.push_back({idOf(&doc), valueAt(&doc, path), 0});
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
    const QByteArray flag =
        m_config.kind == RewriteKind::Extract ? m_config.flag().toUtf8() : QByteArray();
    for (const QByteArray &id : ids)
        (*values)[id] = std::nullopt;
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
    if (m_config.kind != RewriteKind::Extract)
        return false;
    return forward ? flag != FlagState::Absent : flag != FlagState::True;
}

RewriteTarget::Landed RewriteTarget::changed(FlagState flag, bool forward) const
{
    if (m_config.kind != RewriteKind::Extract)
        return Landed::ChangedSince;
    // Going forward, a flag set means the update landed (its excerpt edited since, or edited
    // before a killed run could mark it): the side value is the one the flag points to.
    if (forward)
        return flag == FlagState::True ? Landed::Done : Landed::ChangedSince;
    return flag == FlagState::True ? Landed::ChangedSince : Landed::ChangedUnflagged;
}

void RewriteTarget::guardFlag(bson_t *filter, bool forward) const
{
    if (m_config.kind != RewriteKind::Extract)
        return;
    const QByteArray flag = m_config.flag().toUtf8();
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
    const QByteArray flag = m_config.flag().toUtf8();
    const bool extract = m_config.kind == RewriteKind::Extract;
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

bool RewriteTarget::write(const std::vector<Move> &moves, bool forward, SourceError *error)
{
    const QByteArray path = m_config.path.toUtf8();
    QByteArray options;
    if (m_simpleCollation) {
        BsonDocument opts;
        bson_t collation;
        bson_append_document_begin(opts.get(), "collation", -1, &collation);
        bson_append_utf8(&collation, "locale", -1, "simple", -1);
        bson_append_document_end(opts.get(), &collation);
        options = opts.bytes();
    }
    std::vector<CollectionOps::Write> writes;
    for (const Move &move : moves) {
        if (move.from.isEmpty() || move.to.isEmpty())
            continue; // no value to guard on: never written
        BsonDocument filter;
        bsonraw::append(filter.get(), "_id", 3, move.id);
        bson_t condition;
        bson_append_document_begin(filter.get(), path.constData(), int(path.size()), &condition);
        bsonraw::append(&condition, "$eq", 3, move.from);
        const int type = int(std::uint8_t(move.from.at(0)));
        if (type == BSON_TYPE_ARRAY) {
            // {$eq: [..]} also matches an array holding it as an element: its length too.
            bson_iter_t it, child;
            BsonDocument holder;
            std::int32_t length = 0;
            if (bsonraw::append(holder.get(), "v", 1, move.from) &&
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
        bson_append_document_end(filter.get(), &condition);
        guardFlag(filter.get(), forward);
        writes.push_back({CollectionOps::Write::Kind::UpdateOne, filter.bytes(),
                          updateOf(move, forward), 1, options});
    }
    return writes.empty() ||
           m_ops.bulk(writes, QStringLiteral("rewriting %1").arg(m_config.path), error);
}

std::vector<RewriteTarget::Landed> RewriteTarget::settle(const std::vector<Move> &moves,
                                                         bool forward, SourceError *error)
{
    std::vector<Landed> landed(moves.size(), Landed::ChangedSince);
    std::vector<std::size_t> open(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i)
        open[i] = i;
    for (int round = 0; round < kMaxRounds && !open.empty(); ++round) {
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
            const std::optional<QByteArray> &now = values[moves[i].id];
            if (!now)
                landed[i] = Landed::Deleted;
            else if (*now == moves[i].to)
                landed[i] = Landed::Done;
            else if (*now != moves[i].from)
                landed[i] = changed(flagged[moves[i].id], forward);
            else if (!flagMoved(flagged[moves[i].id], forward))
                again.push_back(i); // its update did not land yet (a racing write came and went)
            else
                landed[i] = Landed::ChangedSince; // the application's flag
        }
        open = std::move(again);
    }
    for (std::size_t i : open)
        landed[i] = Landed::Stuck;
    return landed;
}

} // namespace oe
