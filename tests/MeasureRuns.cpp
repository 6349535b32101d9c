#include "MeasureRuns.h"

#include "BsonFixtures.h"
#include "GroundTruth.h"
#include "LiveDocuments.h"

#include <QTest>

namespace fixtures {

QString MeasureRuns::start()
{
    m_server = LiveServer::open();
    if (!m_server.isValid())
        return m_server.missing();
    m_uri = m_server.uri();
    if (!m_dir.isValid())
        return QStringLiteral("no temporary directory");
    qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
    const CliRun r = cli({QStringLiteral("demo-data"), QStringLiteral("--out"), m_dir.path()});
    return r.exitCode == 0 ? QString() : r.err;
}

QStringList MeasureRuns::target(const QString &collection, const QString &uri) const
{
    return {QStringLiteral("--uri"),        uri.isEmpty() ? m_uri : uri,
            QStringLiteral("--db"),         kDatabase,
            QStringLiteral("--collection"), collection};
}

QString MeasureRuns::analyze(const QString &collection, const QString &name,
                             const QStringList &extra, const QString &uri)
{
    const QString out = m_dir.filePath(name);
    const CliRun r = cli(
        QStringList{QStringLiteral("analyze")} + target(collection, uri) +
        QStringList{QStringLiteral("--top"), QStringLiteral("500"), QStringLiteral("--out"), out} +
        extra);
    m_lastErr = r.err;
    m_lastOut = r.out;
    if (r.exitCode != 0)
        qWarning("%s", qPrintable(r.err));
    return r.exitCode == 0 ? out : QString();
}

void MeasureRuns::import(const QString &collection, const QString &dump)
{
    const CliRun r = cli(QStringList{QStringLiteral("import")} + target(collection) +
                         QStringList{QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    m_documents[collection] = documentsOf(readCollection(m_uri, kDatabase, collection));
    QCOMPARE(m_documents[collection].size(), readReference(dump).size());
}

} // namespace fixtures
