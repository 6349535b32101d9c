#include "remedy/internal/ExtractSide.h"

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
    : m_ops(connection, database, config.side()), m_leaf(config.sideLeaf().toUtf8())
{
}

bool ExtractSide::put(const std::vector<std::pair<QByteArray, QByteArray>> &values,
                      SourceError *error)
{
    std::vector<CollectionOps::Write> writes;
    for (const auto &[id, value] : values) {
        BsonDocument doc;
        bsonraw::append(doc.get(), "_id", 3, id);
        bsonraw::append(doc.get(), m_leaf.constData(), int(m_leaf.size()), value);
        writes.push_back({CollectionOps::Write::Kind::ReplaceUpsert, idFilter(id), doc.bytes()});
    }
    return writes.empty() ||
           m_ops.bulk(writes, QStringLiteral("storing the values in %1").arg(m_ops.ns()), error);
}

bool ExtractSide::remove(const std::vector<QByteArray> &ids, SourceError *error)
{
    std::vector<CollectionOps::Write> writes;
    for (const QByteArray &id : ids)
        writes.push_back({CollectionOps::Write::Kind::DeleteMany, idFilter(id), {}});
    return writes.empty() ||
           m_ops.bulk(writes, QStringLiteral("removing values from %1").arg(m_ops.ns()), error);
}

bool ExtractSide::valuesOf(const std::vector<QByteArray> &ids,
                           std::map<QByteArray, std::optional<QByteArray>> *values,
                           SourceError *error)
{
    for (const QByteArray &id : ids)
        (*values)[id] = std::nullopt;
    BsonDocument filter;
    bson_t condition, list;
    bson_append_document_begin(filter.get(), "_id", -1, &condition);
    bson_append_array_begin(&condition, "$in", -1, &list);
    for (std::size_t i = 0; i < ids.size(); ++i)
        bsonraw::append(&list, std::to_string(i).c_str(), -1, ids[i]);
    bson_append_array_end(&condition, &list);
    bson_append_document_end(filter.get(), &condition);
    return m_ops.find(
        filter.bytes(), {}, QStringLiteral("reading back %1").arg(m_ops.ns()),
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

std::int64_t ExtractSide::count(SourceError *error)
{
    return m_ops.count(BsonDocument().bytes(),
                       QStringLiteral("counting the documents in %1").arg(m_ops.ns()), error);
}

} // namespace oe
