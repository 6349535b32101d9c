#pragma once

#include "mongo/Catalog.h"
#include "mongo/ConnectionSettings.h"

#include <QObject>

namespace oe {

class LatestJobs;

// Lists a connection's databases and collections off the UI thread, one job per connection
// (a reload supersedes the last one); loaded() hands the catalog to the GUI thread.
class CatalogLoader : public QObject
{
    Q_OBJECT
public:
    explicit CatalogLoader(QObject *parent = nullptr);
    void load(const QString &connection, const ConnectionSettings &settings);

signals:
    void loaded(const QString &connection, const oe::Catalog &catalog);

private:
    LatestJobs *m_jobs; // one slot per connection name
};

} // namespace oe
