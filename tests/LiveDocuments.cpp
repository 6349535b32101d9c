#include "LiveDocuments.h"

#include "LiveCollectionSource.h"
#include "LiveServer.h"

#include <QFile>

#include <cstring>

namespace fixtures {

QString liveUri(const QString &variant)
{
    return LiveServer::open(variant).uri();
}

std::map<QByteArray, QByteArray> readCollection(const QString &uri, const QString &database,
                                                const QString &collection)
{
    std::map<QByteArray, QByteArray> docs;
    oe::LiveQuery q;
    q.database = database;
    q.collection = collection;
    oe::ConnectionSettings settings;
    settings.uri = uri;
    oe::LiveCollectionSource source(settings, q);
    oe::SourceError error;
    if (!source.open(&error))
        return docs;
    oe::DocumentBatch batch;
    while (source.read(batch, 1 << 20, &error) == oe::DocumentSource::ReadResult::Batch)
        for (const auto &e : batch.documents) {
            const QByteArray doc(reinterpret_cast<const char *>(batch.data(e)),
                                 qsizetype(e.length));
            docs[fieldOf(doc, QStringLiteral("_id"))] = doc;
        }
    return docs;
}

QByteArray rawValue(const bson_iter_t *it)
{
    const std::uint32_t start = it->key + std::uint32_t(std::strlen(bson_iter_key(it))) + 1;
    QByteArray raw(1, char(bson_iter_type(it)));
    raw.append(reinterpret_cast<const char *>(it->raw + start), qsizetype(it->next_off - start));
    return raw;
}

namespace {
bool find(const QByteArray &doc, const QString &key, bson_iter_t *it)
{
    bson_t b;
    const QByteArray k = key.toUtf8();
    return bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                            std::size_t(doc.size())) &&
           bson_iter_init_find(it, &b, k.constData());
}
} // namespace

QByteArray fieldOf(const QByteArray &doc, const QString &key)
{
    bson_iter_t it;
    return find(doc, key, &it) ? rawValue(&it) : QByteArray();
}

std::int64_t numberOf(const QByteArray &doc, const QString &key)
{
    bson_iter_t it;
    return find(doc, key, &it) && BSON_ITER_HOLDS_NUMBER(&it) ? bson_iter_as_int64(&it) : -1;
}

QList<QByteArray> elementsOf(const QByteArray &doc, const QString &key)
{
    QList<QByteArray> out;
    bson_iter_t it, e;
    if (find(doc, key, &it) && BSON_ITER_HOLDS_ARRAY(&it) && bson_iter_recurse(&it, &e))
        while (bson_iter_next(&e))
            out << rawValue(&e);
    return out;
}

} // namespace fixtures
