#include "demo/DemoPreparer.h"

#include "demo/DemoDataGenerator.h"
#include "jobs/LatestJob.h"

#include <QStandardPaths>

namespace oe {

namespace {

struct Prepared
{
    QStringList files;
    QString error;
};

} // namespace

DemoPreparer::DemoPreparer(QObject *parent) : QObject(parent), m_job(new LatestJob(this)) {}

QString DemoPreparer::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
           QStringLiteral("/demo");
}

void DemoPreparer::prepare()
{
    const QString dir = directory();
    m_job->start(
        [dir] {
            Prepared prepared;
            if (!DemoDataGenerator::ensureDemo(dir, &prepared.files, &prepared.error) &&
                prepared.error.isEmpty())
                prepared.error = QStringLiteral("unknown error");
            return prepared;
        },
        [this, dir](const Prepared &prepared) {
            if (prepared.error.isEmpty())
                emit ready(prepared.files, dir);
            else
                emit failed(prepared.error);
        });
}

} // namespace oe
