#include "session/CatalogLoader.h"

#include "jobs/LatestJobs.h"

namespace oe {

CatalogLoader::CatalogLoader(QObject *parent) : QObject(parent), m_jobs(new LatestJobs(this)) {}

void CatalogLoader::load(const QString &connection, const ConnectionSettings &settings)
{
    (*m_jobs)[connection].start(
        [settings] { return Catalog::load(settings); },
        [this, connection](const Catalog &catalog) { emit loaded(connection, catalog); });
}

} // namespace oe
