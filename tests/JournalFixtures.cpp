#include "JournalFixtures.h"

#include "CliRunner.h"
#include "LiveDocuments.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtEndian>
#include <QtTest>

namespace fixtures {

namespace {

QString quoted(const QString &text)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

// {"createIndexes": c, "indexes": [...]}: the manifest's indexes, each key a list of [name,
// direction] pairs in the index's order (a JSON object would sort them).
QString indexCommand(const QString &collection, const QJsonArray &indexes)
{
    QStringList specs;
    for (const QJsonValue &index : indexes) {
        const QJsonObject spec = index.toObject();
        QStringList key;
        for (const QJsonValue &pair : spec.value(QStringLiteral("key")).toArray())
            key << QStringLiteral("%1: %2").arg(quoted(pair.toArray().at(0).toString()),
                                                QString::number(pair.toArray().at(1).toInt()));
        specs << QStringLiteral("{\"key\": {%1}, \"name\": %2, \"unique\": %3}")
                     .arg(key.join(QStringLiteral(", ")),
                          quoted(spec.value(QStringLiteral("name")).toString()),
                          spec.value(QStringLiteral("unique")).toBool() ? QStringLiteral("true")
                                                                        : QStringLiteral("false"));
    }
    return QStringLiteral("{\"createIndexes\": %1, \"indexes\": [%2]}")
        .arg(quoted(collection), specs.join(QStringLiteral(", ")));
}

} // namespace

std::map<QByteArray, QByteArray> documentsOf(const QString &path)
{
    std::map<QByteArray, QByteArray> docs;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return docs;
    const QByteArray bytes = file.readAll();
    for (qsizetype at = 0; at + 4 <= bytes.size();) {
        const qint32 length = qFromLittleEndian<qint32>(bytes.constData() + at);
        if (length < 5 || at + length > bytes.size())
            break;
        const QByteArray doc = bytes.mid(at, length);
        docs[fieldOf(doc, QStringLiteral("_id"))] = doc;
        at += length;
    }
    return docs;
}

QString journalFixtureDir(const QString &run)
{
    return QFINDTESTDATA(QStringLiteral("data/journals/") + run);
}

QJsonObject journalManifest(const QString &dir)
{
    QFile file(QDir(dir).filePath(QStringLiteral("manifest.json")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString loadJournalFixture(const QString &uri, const QString &database, const QString &dir)
{
    const QJsonObject manifest = journalManifest(dir);
    const QJsonObject indexes = manifest.value(QStringLiteral("indexes")).toObject();
    for (const QJsonValue &v : manifest.value(QStringLiteral("collections")).toArray()) {
        const QString c = v.toString();
        const QString file = QDir(dir).filePath(c + QStringLiteral(".bson"));
        QString error;
        if (QFileInfo(file).size() > 0) {
            const CliRun r =
                runCli({QStringLiteral("import"), QStringLiteral("--uri"), uri,
                        QStringLiteral("--db"), database, QStringLiteral("--collection"), c,
                        QStringLiteral("--dump"), file, QStringLiteral("--drop")});
            if (r.exitCode != 0)
                return r.err;
        } else if (!command(uri, database,
                            QStringLiteral("{\"create\": %1}").arg(quoted(c)).toUtf8(), &error)) {
            return error;
        }
        if (const QJsonArray list = indexes.value(c).toArray();
            !list.isEmpty() && !command(uri, database, indexCommand(c, list).toUtf8(), &error))
            return error;
    }
    return {};
}

} // namespace fixtures
