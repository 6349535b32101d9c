#pragma once

#include "migration/MigrationRun.h"
#include "mongo/Catalog.h"
#include "mongo/ConnectionSettings.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

class QWidget;

namespace oe {

class LatestJobs;
class MigrationRunner;

// When a connection's catalog loads: the journaled runs its journals record as interrupted (the
// app closed or crashed mid-split or mid-rewrite, or another window stopped it), splits and the
// rewrites of every remedy, found off the UI thread, one check per connection. A split this
// window works on is not one of them: the wizard or the Migrations view that runs it, or
// stopped it, offers its own Resume.
class InterruptedRunWatcher : public QObject
{
    Q_OBJECT
public:
    // One interrupted run: where, and in words.
    struct Interrupted
    {
        QString database, collection, text;
        bool split = false; // a split (this window's runners are splits'), or a rewrite
    };

    explicit InterruptedRunWatcher(QObject *parent = nullptr);
    // Reads the journals the catalog lists (nothing when it lists none).
    void check(const QString &connection, const ConnectionSettings &settings,
               const Catalog &catalog);
    // A runner of this window: its collection while it lives, and every run it wrote to (for
    // the rest of the session), are this window's.
    void follow(MigrationRunner *runner);

    // Asks the user (a non-modal question over `parent`) whether to open Migrations on the runs
    // of `connection` found last that were not offered before (nothing when there is none);
    // openRequested() with the first of them when they say yes.
    void offer(QWidget *parent, const QString &connection);

signals:
    // "db.collection (field, applying)" for each interrupted split that is not this window's,
    // "db.collection (body: extracted to ..., applying)" for each rewrite; empty when none.
    void found(const QString &connection, const QStringList &runs);
    void openRequested(const QString &connection, const QString &database,
                       const QString &collection);

private:
    bool isThisWindows(const QString &connection, const MigrationRun &run) const;
    bool isThisWindows(const QString &connection, const Interrupted &run) const;

    LatestJobs *m_jobs; // one slot per connection name
    QList<QPointer<MigrationRunner>> m_runners;
    QSet<QString> m_written;           // runs a runner here wrote to
    QSet<QString> m_offered;           // by server: asked about once, never again this session
    QHash<QString, QString> m_servers; // connection -> the server it reaches (hosts)
    QHash<QString, QList<Interrupted>> m_latest; // by connection: what found() said last
};

} // namespace oe
