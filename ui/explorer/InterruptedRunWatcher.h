#pragma once

#include "mongo/Catalog.h"
#include "mongo/ConnectionSettings.h"

#include <QObject>

class QWidget;
#include <QStringList>

namespace oe {

class LatestJobs;

// When a connection's catalog loads: the migration runs its journals record as interrupted
// (the app closed or crashed mid-split), found off the UI thread, one check per connection.
class InterruptedRunWatcher : public QObject
{
    Q_OBJECT
public:
    explicit InterruptedRunWatcher(QObject *parent = nullptr);
    // Reads the journals the catalog lists (nothing when it lists none).
    void check(const QString &connection, const ConnectionSettings &settings,
               const Catalog &catalog);

    // Asks the user (a non-modal question over `parent`) whether to open Migrations for the
    // runs found; openRequested() when they say yes.
    void offer(QWidget *parent, const QString &connection, const QStringList &runs);

signals:
    // "db.collection (field, applying)" for each interrupted run; empty when there is none.
    void found(const QString &connection, const QStringList &runs);
    void openRequested();

private:
    LatestJobs *m_jobs; // one slot per connection name
};

} // namespace oe
