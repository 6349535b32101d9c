#pragma once

#include <QByteArray>
#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeView;

namespace oe {

class DocumentTreeModel;
class LatestJob;

// One document: a lazily expanding tree and its relaxed extended JSON (rendered off the GUI
// thread, so a 15 MB document never freezes the window).
class DocumentViewer : public QDialog
{
    Q_OBJECT
public:
    explicit DocumentViewer(QWidget *parent = nullptr);
    void setDocument(const QByteArray &document, const QString &title);
    DocumentTreeModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }
    QPlainTextEdit *jsonView() const { return m_json; }
    QTabWidget *tabs() const { return m_tabs; }
    static constexpr qsizetype kSlice = 256 * 1024; // characters added per event-loop turn

signals:
    void jsonReady();

private:
    void fetchVisible();
    void fetchVisibleUnder(const QModelIndex &parent);
    DocumentTreeModel *m_model;
    QTreeView *m_tree;
    QPlainTextEdit *m_json;
    QTabWidget *m_tabs;
    QLabel *m_info;
    LatestJob *m_render; // the JSON text, off the GUI thread
    void appendChunk(int generation);

    int m_generation = 0;
    QString m_pending; // JSON not yet in the view: added in slices, the window stays live
    qsizetype m_position = 0;
};

} // namespace oe
