#include "jobs/DocumentLoader.h"

#include "mongo/DocumentFetcher.h"

namespace oe {

namespace {
struct Fetched
{
    QByteArray document;
    QString error;
};
} // namespace

DocumentLoader::DocumentLoader(QObject *parent) : QObject(parent), m_job(new LatestJob(this)) {}

void DocumentLoader::load(const SourceRef &source, std::uint64_t docIndex, const QString &idJson)
{
    m_job->start(
        [source, docIndex, idJson](const std::atomic<bool> &cancelled) {
            Fetched f;
            SourceError error;
            f.document =
                source.kind == SourceRef::Kind::Dump
                    ? DocumentFetcher::fromDump(source.dumpPath, docIndex, &error, &cancelled)
                    : DocumentFetcher::fromCollection(source.settings, source.database,
                                                      source.collection, idJson, &error);
            if (f.document.isEmpty())
                f.error = error.isError() ? error.toString() : QStringLiteral("document not found");
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
