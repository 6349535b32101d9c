#include "remedy/extract/ExtractSide.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <string>

namespace oe {

namespace {

QByteArray idFilter(const QByteArray &id)
{
    BsonDocument filter;
    bsonraw::append(filter.get(), "_id", 3, id);
    return filter.bytes();
}

} // namespace

ExtractSide::ExtractSide(MongoConnection &connection, const QString &database,
                         const RewriteConfig &config)
    : m_ops(connection, database, config.side()), m_leaf(config.sideLeaf().toUtf8()),
      m_name(config.side())
{
}

bool ExtractSide::put(const std::vector<RewriteEntry> &entries, SourceError *error)
{
    std::vector<CollectionOps::Write> writes;
    for (const RewriteEntry &entry : entries) {
        const QByteArray &id = entry.id;
        const QByteArray &value = entry.before;
        BsonDocument doc;
        bsonraw::append(doc.get(), "_id", 3, id);
        bsonraw::append(doc.get(), m_leaf.constData(), int(m_leaf.size()), value);
        writes.push_back({CollectionOps::Write::Kind::ReplaceUpsert, idFilter(id), doc.bytes()});
    }
    return writes.empty() ||
           m_ops.bulk(writes, QStringLiteral("storing the values in %1").arg(m_ops.ns()), error);
}

bool ExtractSide::remove(const std::vector<RewriteEntry> &entries, SourceError *error)
{
    std::vector<CollectionOps::Write> writes;
    for (const RewriteEntry &entry : entries)
        writes.push_back({CollectionOps::Write::Kind::DeleteMany, idFilter(entry.id), {}});
    return writes.empty() ||
           m_ops.bulk(writes, QStringLiteral("removing values from %1").arg(m_ops.ns()), error);
}

bool ExtractSide::stored(const std::vector<RewriteEntry> &entries,
                         std::map<QByteArray, std::optional<QByteArray>> *values,
                         SourceError *error)
{
    for (const RewriteEntry &entry : entries)
        (*values)[entry.id] = std::nullopt;
    std::vector<QByteArray> ids;
    for (const RewriteEntry &entry : entries)
        ids.push_back(entry.id);
    return m_ops.find(
        bsonraw::idsIn(ids), {}, QStringLiteral("reading back %1").arg(m_ops.ns()),
        [&](const QByteArray &bytes) {
            bson_t doc;
            bson_iter_t it;
            if (!bsonraw::view(bytes, &doc) || !bson_iter_init_find(&it, &doc, "_id"))
                return true;
            const QByteArray id = bsonraw::valueOf(&it);
            (*values)[id] = bson_iter_init_find(&it, &doc, m_leaf.constData())
                                ? std::optional<QByteArray>(bsonraw::valueOf(&it))
                                : std::optional<QByteArray>(QByteArray());
            return true;
        },
        error);
}

std::int64_t ExtractSide::held(SourceError *error)
{
    return m_ops.count(BsonDocument().bytes(),
                       QStringLiteral("counting the documents in %1").arg(m_ops.ns()), error);
}

bool ExtractSide::tidy(QStringList *notes, SourceError *error)
{
    const std::int64_t n = held(error);
    if (n < 0)
        return false;
    if (n > 0) {
        *notes << QStringLiteral("the side collection %1 keeps %2 values of documents the "
                                 "application rewrote after the rewrite")
                      .arg(m_name)
                      .arg(n);
        return true;
    }
    if (!m_ops.exists(error))
        return !error->isError();
    if (!m_ops.drop(QStringLiteral("dropping the empty side collection %1").arg(m_name), error))
        return false;
    *notes << QStringLiteral("the empty side collection %1 dropped").arg(m_name);
    return true;
}

bool ExtractSide::isFree(SourceError *error)
{
    const std::int64_t held = this->held(error);
    if (error->isError())
        return false;
    if (held > 0) {
        error->kind = SourceError::Kind::Usage;
        error->message = QStringLiteral("the side collection %1 holds %2 documents already "
                                        "(other data, or values a rollback kept for documents "
                                        "that still point to them): name another with --side")
                             .arg(m_name)
                             .arg(held);
    }
    return held == 0;
}

} // namespace oe
