#include "shard/ShardKey.h"

#include "bson/IdOrder.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <bson/bson.h>

namespace oe {

namespace {

bool viewOf(const QByteArray &bytes, bson_t *view)
{
    return bson_init_static(view, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

} // namespace

std::optional<ShardKey> ShardKey::fromBson(const QByteArray &keyDocument)
{
    bson_t doc;
    bson_iter_t it;
    if (!viewOf(keyDocument, &doc) || !bson_iter_init(&it, &doc))
        return std::nullopt;
    ShardKey key;
    while (bson_iter_next(&it)) {
        Field field{QString::fromUtf8(bson_iter_key(&it)), false};
        if (BSON_ITER_HOLDS_UTF8(&it))
            field.hashed = std::string_view(bson_iter_utf8(&it, nullptr)) == "hashed";
        if (!field.hashed && !BSON_ITER_HOLDS_NUMBER(&it))
            return std::nullopt;
        key.m_fields.push_back(field);
    }
    if (key.m_fields.empty())
        return std::nullopt;
    return key;
}

QStringList ShardKey::paths() const
{
    QStringList out;
    for (const Field &f : m_fields)
        out << f.path;
    return out;
}

bool ShardKey::isHashed() const
{
    for (const Field &f : m_fields)
        if (f.hashed)
            return true;
    return false;
}

bool ShardKey::isRangedOnIdOnly() const
{
    return m_fields.size() == 1 && m_fields[0].path == QLatin1String("_id") && !m_fields[0].hashed;
}

QString ShardKey::overlapping(const QString &path) const
{
    for (const Field &f : m_fields)
        if (f.path == path || f.path.startsWith(path + QLatin1Char('.')) ||
            path.startsWith(f.path + QLatin1Char('.')))
            return f.path;
    return {};
}

QString ShardKey::toText() const
{
    QStringList parts;
    for (const Field &f : m_fields)
        parts << f.path + (f.hashed ? QStringLiteral(": \"hashed\"") : QStringLiteral(": 1"));
    return QLatin1Char('{') + parts.join(QLatin1String(", ")) + QLatin1Char('}');
}

QByteArray ShardKey::valuesOf(const QByteArray &document) const
{
    bson_t doc;
    if (!viewOf(document, &doc))
        return {};
    BsonDocument out;
    for (const Field &f : m_fields) {
        const QByteArray path = f.path.toUtf8();
        bson_iter_t it, found;
        if (bson_iter_init(&it, &doc) && bson_iter_find_descendant(&it, path.constData(), &found))
            bson_append_iter(out.get(), path.constData(), int(path.size()), &found);
        else
            bson_append_null(out.get(), path.constData(), int(path.size()));
    }
    return out.bytes();
}

int ShardKey::compareValues(const QByteArray &a, const QByteArray &b)
{
    bson_t da, db;
    bson_iter_t ia, ib;
    if (!viewOf(a, &da) || !viewOf(b, &db) || !bson_iter_init(&ia, &da) ||
        !bson_iter_init(&ib, &db))
        return 0;
    while (true) {
        const bool moreA = bson_iter_next(&ia), moreB = bson_iter_next(&ib);
        if (!moreA || !moreB)
            return int(moreA) - int(moreB);
        if (const int c = IdOrder::compare(bsonraw::valueOf(&ia), bsonraw::valueOf(&ib)))
            return c;
    }
}

} // namespace oe
