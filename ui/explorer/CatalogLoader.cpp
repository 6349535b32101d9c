#include "explorer/CatalogLoader.h"

#include "jobs/LatestJob.h"

namespace oe {

void CatalogLoader::load(const QString &connection, const ConnectionSettings &settings)
{
    LatestJob *&job = m_jobs[connection];
    if (!job)
        job = new LatestJob(this);
    job->start([settings] { return Catalog::load(settings); },
               [this, connection](const Catalog &catalog) { emit loaded(connection, catalog); });
}

} // namespace oe
