#pragma once

#include <QObject>
#include <QStringList>

namespace oe {

class LatestJob;

// The built-in demo datasets, written once into the cache folder on a worker (the same seed
// as `outlier-explorer-cli demo-data`): ready() lists the files, failed() says why not.
class DemoPreparer : public QObject
{
    Q_OBJECT
public:
    explicit DemoPreparer(QObject *parent = nullptr);
    static QString directory(); // <cache>/demo
    void prepare();

signals:
    void ready(const QStringList &files, const QString &directory);
    void failed(const QString &error);

private:
    LatestJob *m_job;
};

} // namespace oe
