#pragma once

#include "jobs/LatestJob.h"

#include <QHash>
#include <QObject>
#include <QString>

namespace oe {

// LatestJob slots by key (a connection's name): starting a key's job supersedes only that
// key's last one, so each connection's latest answer wins on its own.
class LatestJobs : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    LatestJob &operator[](const QString &key)
    {
        LatestJob *&job = m_jobs[key];
        if (!job)
            job = new LatestJob(this);
        return *job;
    }

private:
    QHash<QString, LatestJob *> m_jobs;
};

} // namespace oe
