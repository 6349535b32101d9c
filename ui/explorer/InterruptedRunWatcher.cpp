#include "explorer/InterruptedRunWatcher.h"
#include "split/SplitConfig.h"

#include "jobs/LatestJobs.h"
#include "migration/MigrationHistory.h"

#include <QMessageBox>

namespace oe {

InterruptedRunWatcher::InterruptedRunWatcher(QObject *parent)
    : QObject(parent), m_jobs(new LatestJobs(this))
{
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
    (*m_jobs)[connection].start(
        [settings, databases] {
            MigrationRuns runs;
            SourceError error;
            MigrationHistory::runs(settings, databases, &runs, &error);
            return runs;
        },
        [this, connection](const MigrationRuns &runs) {
            QStringList interrupted;
            for (const MigrationRun &r : runs)
                if (r.interrupted())
                    interrupted << QStringLiteral("%1.%2 (%3, %4)")
                                       .arg(r.database, r.config.collection, r.config.field,
                                            journalText(r.state));
            emit found(connection, interrupted);
        });
}

void InterruptedRunWatcher::offer(QWidget *parent, const QString &connection,
                                  const QStringList &runs)
{
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Interrupted migration"),
        tr("The migration journal on %1 records a run that did not finish:\n%2\n\nOpen "
           "Migrations to resume, verify or roll it back?")
            .arg(connection, runs.join(QLatin1Char('\n'))),
        QMessageBox::Open | QMessageBox::Close, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::accepted, this, &InterruptedRunWatcher::openRequested);
    box->open();
}

} // namespace oe
