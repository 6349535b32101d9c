#include "DocumentLoader.h"

#include "DocumentFetcher.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace oe {

namespace {
struct Fetched
{
    QByteArray document;
    QString error;
};
} // namespace

DocumentLoader::~DocumentLoader()
{
    if (m_cancel)
        m_cancel->store(true);
}

void DocumentLoader::load(const SourceRef &source, std::uint64_t docIndex, const QString &idJson)
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const int generation = ++m_generation;
    auto cancel = m_cancel;
    auto *watcher = new QFutureWatcher<Fetched>(this);
    connect(watcher, &QFutureWatcher<Fetched>::finished, this, [this, watcher, generation, idJson] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        const Fetched f = watcher->result();
        if (f.error.isEmpty())
            emit loaded(f.document, idJson);
        else
            emit failed(f.error);
    });
    watcher->setFuture(QtConcurrent::run([source, docIndex, idJson, cancel] {
        Fetched f;
        SourceError error;
        f.document =
            source.kind == SourceRef::Kind::Dump
                ? DocumentFetcher::fromDump(source.dumpPath, docIndex, &error, cancel.get())
                : DocumentFetcher::fromCollection(source.settings, source.database,
                                                  source.collection, idJson, &error);
        if (f.document.isEmpty())
            f.error = error.isError() ? error.toString() : QStringLiteral("document not found");
        return f;
    }));
}

} // namespace oe
