#pragma once

#include "mongo/Catalog.h"
#include "mongo/ConnectionSettings.h"

#include <QHash>
#include <QObject>

namespace oe {

class LatestJob;

// Lists a connection's databases and collections off the UI thread, one job per connection
// (a reload supersedes the last one); loaded() hands the catalog to the GUI thread.
class CatalogLoader : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    void load(const QString &connection, const ConnectionSettings &settings);

signals:
    void loaded(const QString &connection, const oe::Catalog &catalog);

private:
    QHash<QString, LatestJob *> m_jobs; // by connection name
};

} // namespace oe
