#pragma once

#include "analysis/SourceRef.h"
#include "viewer/ErrorNotice.h"

#include <QObject>

class QWidget;

namespace oe {

class DocumentLoader;

// Opens one document in a viewer beside the window: fetched off the GUI thread (a dump by
// position, a collection by _id; a newer request supersedes an older one), then shown in a
// DocumentViewer of its own. Says what it does in a status line, and why it could not.
class DocumentOpener : public QObject
{
    Q_OBJECT
public:
    explicit DocumentOpener(QWidget *window);
    void open(const SourceRef &source, std::uint64_t docIndex, const QString &idJson);

signals:
    void status(const QString &text);
    void failed(const oe::ErrorNotice &notice);

private:
    QWidget *m_window;
    DocumentLoader *m_loader;
};

} // namespace oe
