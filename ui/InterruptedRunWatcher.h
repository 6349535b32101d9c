#pragma once

#include "Catalog.h"
#include "ConnectionSettings.h"

#include <QHash>
#include <QObject>
#include <QStringList>

namespace oe {

class LatestJob;

// When a connection's catalog loads: the migration runs its journals record as interrupted
// (the app closed or crashed mid-split), found off the UI thread, one check per connection.
class InterruptedRunWatcher : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // Reads the journals the catalog lists (nothing when it lists none).
    void check(const QString &connection, const ConnectionSettings &settings,
               const Catalog &catalog);

signals:
    // "db.collection (field, applying)" for each interrupted run; empty when there is none.
    void found(const QString &connection, const QStringList &runs);

private:
    QHash<QString, LatestJob *> m_jobs; // by connection name
};

} // namespace oe
