#include "jobs/DocumentLoader.h"

#include "mongo/DocumentFetcher.h"

namespace oe {

DocumentLoader::DocumentLoader(QObject *parent) : QObject(parent), m_job(new LatestJob(this)) {}

QByteArray DocumentLoader::fetch(const SourceRef &source, std::uint64_t docIndex,
                                 const QString &idJson, const std::atomic<bool> &cancelled,
                                 QString *error)
{
    SourceError failure;
    QByteArray document =
        source.kind == SourceRef::Kind::Dump
            ? DocumentFetcher::fromDump(source.dumpPath, docIndex, &failure, &cancelled)
            : DocumentFetcher::fromCollection(source.settings, source.database, source.collection,
                                              idJson, &failure);
    if (document.isEmpty())
        *error = failure.isError() ? failure.toString() : QStringLiteral("document not found");
    return document;
}

void DocumentLoader::load(const SourceRef &source, std::uint64_t docIndex, const QString &idJson)
{
    struct Fetched
    {
        QByteArray document;
        QString error;
    };
    m_job->start(
        [source, docIndex, idJson](const std::atomic<bool> &cancelled) {
            Fetched f;
            f.document = fetch(source, docIndex, idJson, cancelled, &f.error);
            return f;
        },
        [this, idJson](const Fetched &f) {
            if (f.error.isEmpty())
                emit loaded(f.document, idJson);
            else
                emit failed(f.error);
        });
}

} // namespace oe
