#include "LiveDocuments.h"

#include "LiveServer.h"
#include "bson/internal/BsonDocument.h"
#include "mongo/LiveCollectionSource.h"
#include "mongo/MongoConnection.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstring>

namespace fixtures {

QString liveUri(const QString &variant)
{
    return LiveServer::open(variant).uri();
}

QString codegenDrivers()
{
    return qEnvironmentVariable("OE_CACHE_DIR",
                                QDir::homePath() + QStringLiteral("/.cache/outlier-explorer")) +
           QStringLiteral("/codegen-drivers");
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

bool command(const QString &uri, const QString &database, const QByteArray &json, QString *error,
             QByteArray *replyOut)
{
    bson_error_t parseError;
    const auto cmd = oe::BsonDocument::fromJson(json, &parseError);
    if (!cmd) {
        *error = QString::fromUtf8(parseError.message);
        return false;
    }
    oe::ConnectionSettings settings;
    settings.uri = uri;
    oe::SourceError e;
    const auto connection = oe::MongoConnection::open(settings, &e);
    const QByteArray reply =
        connection ? connection->command(database, cmd->bytes(), QStringLiteral("test"), &e)
                   : QByteArray();
    if (reply.isEmpty()) {
        *error = e.message;
        return false;
    }
    if (replyOut)
        *replyOut = reply; // with its write errors, when it has some
    if (!fieldOf(reply, QStringLiteral("writeErrors")).isEmpty()) {
        *error = QStringLiteral("write errors in the reply");
        return false;
    }
    return true;
}

bool startProfiling(const QString &uri, const QString &database, QString *error)
{
    QString ignored; // no profile collection yet
    command(uri, database, "{\"profile\": 0}", &ignored);
    command(uri, database, "{\"drop\": \"system.profile\"}", &ignored);
    return command(uri, database,
                   "{\"create\": \"system.profile\", \"capped\": true, \"size\": 67108864}",
                   error) &&
           command(uri, database, "{\"profile\": 2}", error);
}

bool stopProfiling(const QString &uri, const QString &database, QString *error)
{
    return command(uri, database, "{\"profile\": 0}", error);
}

std::int64_t profiled(const QString &uri, const QString &database, const QString &ns,
                      const QString &filter)
{
    QString error;
    QByteArray reply;
    const QString count = QStringLiteral("{\"count\": \"system.profile\", \"query\": "
                                         "{\"$and\": [{\"ns\": \"%1\"}, %2]}}")
                              .arg(ns, filter);
    if (!command(uri, database, count.toUtf8(), &error, &reply))
        return -1;
    return numberOf(reply, QStringLiteral("n"));
}

bool collectionExists(const QString &uri, const QString &database, const QString &collection)
{
    QString error;
    QByteArray reply;
    const QByteArray json =
        QStringLiteral("{\"listCollections\": 1, \"nameOnly\": true, "
                       "\"filter\": {\"name\": %1}}")
            .arg(QString::fromUtf8(
                     QJsonDocument(QJsonArray{collection}).toJson(QJsonDocument::Compact))
                     .mid(1)
                     .chopped(1))
            .toUtf8();
    if (!command(uri, database, json, &error, &reply))
        return false;
    // cursor.firstBatch holds the one collection of that name, if any.
    bson_t doc;
    bson_iter_t it, batch;
    return bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(reply.constData()),
                            std::size_t(reply.size())) &&
           bson_iter_init(&it, &doc) &&
           bson_iter_find_descendant(&it, "cursor.firstBatch", &batch) &&
           BSON_ITER_HOLDS_ARRAY(&batch) && bson_iter_recurse(&batch, &it) && bson_iter_next(&it);
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

QStringList keysOf(const QByteArray &doc)
{
    QStringList keys;
    bson_t d;
    bson_iter_t it;
    if (bson_init_static(&d, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                         std::size_t(doc.size())) &&
        bson_iter_init(&it, &d))
        while (bson_iter_next(&it))
            keys << QString::fromUtf8(bson_iter_key(&it));
    return keys;
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
