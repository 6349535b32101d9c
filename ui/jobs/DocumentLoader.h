#pragma once

#include "analysis/SourceRef.h"
#include "jobs/LatestJob.h"

#include <QByteArray>
#include <QObject>

#include <atomic>
#include <memory>

namespace oe {

// Fetches one document off the GUI thread (a dump by position, a collection by _id) and
// reports it by signal. A newer request supersedes an older one.
class DocumentLoader : public QObject
{
    Q_OBJECT
public:
    explicit DocumentLoader(QObject *parent = nullptr);
    void load(const SourceRef &source, std::uint64_t docIndex, const QString &idJson);
    // The fetch itself, on the calling (worker) thread: empty with `error` set on failure.
    static QByteArray fetch(const SourceRef &source, std::uint64_t docIndex, const QString &idJson,
                            const std::atomic<bool> &cancelled, QString *error);

signals:
    void loaded(const QByteArray &document, const QString &idJson);
    void failed(const QString &message);

private:
    LatestJob *m_job;
};

} // namespace oe
