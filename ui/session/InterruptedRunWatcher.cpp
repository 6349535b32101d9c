#include "session/InterruptedRunWatcher.h"
#include "split/SplitConfig.h"

#include "jobs/LatestJobs.h"
#include "jobs/MigrationRunner.h"
#include "migration/MigrationHistory.h"
#include "remedy/RewriteHistory.h"

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

QString textOf(const RewriteRun &r)
{
    return QStringLiteral("%1.%2 (%3, %4)")
        .arg(r.database, r.config.collection, r.config.describe(), journalText(r.state));
}

struct Found
{
    MigrationRuns splits;
    RewriteRuns rewrites;
};
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

bool InterruptedRunWatcher::isThisWindows(const QString &connection, const Interrupted &run) const
{
    if (!run.split)
        return false; // a rewrite running here is connected, so not interrupted (RewriteRun)
    MigrationRun split;
    split.database = run.database;
    split.config.collection = run.collection;
    return isThisWindows(connection, split);
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
    QStringList splits, rewrites; // the databases holding journals of each
    for (const Catalog::Database &db : catalog.databases)
        for (const CollectionInfo &c : db.collections) {
            if (SplitConfig::isJournal(c.name) && !splits.contains(db.info.name))
                splits << db.info.name;
            if (RewriteConfig::isJournal(c.name) && !rewrites.contains(db.info.name))
                rewrites << db.info.name;
        }
    if (splits.isEmpty() && rewrites.isEmpty())
        return;
    m_servers.insert(connection, serverOf(settings));
    (*m_jobs)[connection].start(
        [settings, splits, rewrites] {
            Found found;
            SourceError error;
            if (!splits.isEmpty())
                MigrationHistory::runs(settings, splits, &found.splits, &error);
            if (!rewrites.isEmpty())
                RewriteHistory::runs(settings, rewrites, &found.rewrites, &error);
            return found;
        },
        [this, connection](const Found &runs) {
            QList<Interrupted> interrupted;
            QStringList texts;
            for (const MigrationRun &r : runs.splits)
                if (r.interrupted() && !isThisWindows(connection, r)) {
                    interrupted << Interrupted{r.database, r.config.collection, textOf(r), true};
                    texts << textOf(r);
                }
            for (const RewriteRun &r : runs.rewrites)
                if (r.interrupted()) {
                    interrupted << Interrupted{r.database, r.config.collection, textOf(r)};
                    texts << textOf(r);
                }
            m_latest.insert(connection, interrupted);
            emit found(connection, texts);
        });
}

void InterruptedRunWatcher::offer(QWidget *parent, const QString &connection)
{
    QList<Interrupted> fresh;
    QStringList texts;
    for (const Interrupted &r : m_latest.value(connection)) {
        // Offered once per server: another saved connection to it finds the same run.
        const QString key =
            keyOf(m_servers.value(connection, connection), r.database, r.collection) + QChar(0x1f) +
            r.text;
        if (m_offered.contains(key) || isThisWindows(connection, r))
            continue;
        m_offered.insert(key);
        fresh.push_back(r);
        texts << r.text;
    }
    if (fresh.empty())
        return;
    const bool one = texts.size() == 1;
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Interrupted migration"),
        (one ? tr("The journals on %1 record a run that did not finish:").arg(connection)
             : tr("The journals on %1 record %2 runs that did not finish:")
                   .arg(connection, QString::number(texts.size()))) +
            QLatin1Char('\n') + texts.join(QLatin1Char('\n')) + QStringLiteral("\n\n") +
            (one ? tr("Open Migrations to resume, verify or roll it back?")
                 : tr("Open Migrations to resume, verify or roll them back?")),
        QMessageBox::Open | QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("interruptedRunOffer"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    const Interrupted first = fresh.front();
    connect(box, &QMessageBox::accepted, this, [this, connection, first] {
        emit openRequested(connection, first.database, first.collection);
    });
    box->open();
}

} // namespace oe
