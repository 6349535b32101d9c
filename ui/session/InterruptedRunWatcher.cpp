#include "session/InterruptedRunWatcher.h"
#include "split/SplitConfig.h"

#include "jobs/LatestJobs.h"
#include "jobs/MigrationRunner.h"
#include "migration/MigrationHistory.h"

#include "mongo/ConnectionUri.h"

#include <QMessageBox>

namespace oe {

namespace {
// A run by its collection: a journal records one run per collection at a time.
QString keyOf(const QString &connection, const QString &database, const QString &collection)
{
    return QStringList{connection, database, collection}.join(QChar(0x1f));
}

// The server a connection reaches, whatever it is saved as: its hosts (lowercase, each with
// its port, sorted), so two saved connections to one server share their runs.
QString serverOf(const ConnectionSettings &settings)
{
    ConnectionUri uri;
    QString ignored;
    if (!ConnectionUri::parse(settings.uri, &uri, &ignored))
        return settings.uri;
    QStringList hosts;
    for (QString host : uri.hosts.toLower().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const bool hasPort = host.startsWith(QLatin1Char('[')) ? host.contains(QStringLiteral("]:"))
                                                               : host.contains(QLatin1Char(':'));
        if (!uri.srv && !hasPort)
            host += QStringLiteral(":27017");
        hosts << host;
    }
    hosts.sort();
    return (uri.srv ? QStringLiteral("srv:") : QString()) + hosts.join(QLatin1Char(','));
}

QString textOf(const MigrationRun &r)
{
    return QStringLiteral("%1.%2 (%3, %4)")
        .arg(r.database, r.config.collection, r.config.field, journalText(r.state));
}
} // namespace

InterruptedRunWatcher::InterruptedRunWatcher(QObject *parent)
    : QObject(parent), m_jobs(new LatestJobs(this))
{
}

void InterruptedRunWatcher::follow(MigrationRunner *runner)
{
    m_runners.removeAll(nullptr);
    if (m_runners.contains(runner))
        return;
    m_runners << runner;
    connect(runner, &MigrationRunner::targetChanged, this,
            [this](const SourceRef &target, const SplitConfig &) {
                m_written.insert(keyOf(target.connectionName, target.database, target.collection));
            });
}

bool InterruptedRunWatcher::isThisWindows(const QString &connection, const MigrationRun &run) const
{
    const QString key = keyOf(connection, run.database, run.config.collection);
    if (m_written.contains(key))
        return true;
    for (const QPointer<MigrationRunner> &runner : m_runners)
        if (runner && runner->target().kind == SourceRef::Kind::Collection &&
            keyOf(runner->target().connectionName, runner->target().database,
                  runner->target().collection) == key)
            return true;
    return false;
}

void InterruptedRunWatcher::check(const QString &connection, const ConnectionSettings &settings,
                                  const Catalog &catalog)
{
    QStringList databases;
    for (const Catalog::Database &db : catalog.databases)
        for (const CollectionInfo &c : db.collections)
            if (SplitConfig::isJournal(c.name) && !databases.contains(db.info.name))
                databases << db.info.name;
    if (databases.isEmpty())
        return;
    m_servers.insert(connection, serverOf(settings));
    (*m_jobs)[connection].start(
        [settings, databases] {
            MigrationRuns runs;
            SourceError error;
            MigrationHistory::runs(settings, databases, &runs, &error);
            return runs;
        },
        [this, connection](const MigrationRuns &runs) {
            MigrationRuns interrupted;
            QStringList texts;
            for (const MigrationRun &r : runs)
                if (r.interrupted() && !isThisWindows(connection, r)) {
                    interrupted.push_back(r);
                    texts << textOf(r);
                }
            m_latest.insert(connection, interrupted);
            emit found(connection, texts);
        });
}

void InterruptedRunWatcher::offer(QWidget *parent, const QString &connection)
{
    MigrationRuns fresh;
    QStringList texts;
    for (const MigrationRun &r : m_latest.value(connection)) {
        // Offered once per server: another saved connection to it finds the same run.
        const QString key =
            keyOf(m_servers.value(connection, connection), r.database, r.config.collection);
        if (m_offered.contains(key) || isThisWindows(connection, r))
            continue;
        m_offered.insert(key);
        fresh.push_back(r);
        texts << textOf(r);
    }
    if (fresh.empty())
        return;
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Interrupted migration"),
        tr("The migration journal on %1 records a run that did not finish:\n%2\n\nOpen "
           "Migrations to resume, verify or roll it back?")
            .arg(connection, texts.join(QLatin1Char('\n'))),
        QMessageBox::Open | QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("interruptedRunOffer"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    const MigrationRun first = fresh.front();
    connect(box, &QMessageBox::accepted, this, [this, connection, first] {
        emit openRequested(connection, first.database, first.config.collection);
    });
    box->open();
}

} // namespace oe
