#include "viewer/DocumentOpener.h"

#include "jobs/DocumentLoader.h"
#include "viewer/DocumentViewer.h"

namespace oe {

DocumentOpener::DocumentOpener(QWidget *window)
    : QObject(window), m_window(window), m_loader(new DocumentLoader(this))
{
    connect(m_loader, &DocumentLoader::loaded, this,
            [this](const QByteArray &document, const QString &id) {
                auto *viewer = new DocumentViewer(m_window);
                viewer->setAttribute(Qt::WA_DeleteOnClose);
                viewer->setDocument(document, id);
                viewer->show();
                emit status(tr("Opened document %1.").arg(id));
            });
    connect(m_loader, &DocumentLoader::failed, this, [this](const QString &message) {
        emit failed(ErrorNotice::of(tr("Open document"), tr("The document could not be loaded."),
                                    message, SourceError::Kind::Connection));
    });
}

void DocumentOpener::open(const SourceRef &source, std::uint64_t docIndex, const QString &idJson)
{
    emit status(tr("Loading document %1…").arg(idJson));
    m_loader->load(source, docIndex, idJson);
}

} // namespace oe
