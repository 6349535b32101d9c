#include "viewer/DocumentViewer.h"

#include "charts/Format.h"
#include "jobs/LatestJob.h"
#include "models/DocumentTreeModel.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTabWidget>
#include <QTextCursor>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace oe {

DocumentViewer::DocumentViewer(QWidget *parent)
    : QDialog(parent), m_model(new DocumentTreeModel(this)), m_tree(new QTreeView(this)),
      m_json(new QPlainTextEdit(this)), m_tabs(new QTabWidget(this)), m_info(new QLabel(this)),
      m_render(new LatestJob(this))
{
    resize(900, 650);
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true); // keeps long arrays fast
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setSectionResizeMode(DocumentTreeModel::Value, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_json->setReadOnly(true);
    m_json->setUndoRedoEnabled(false);
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setPlaceholderText(tr("Rendering extended JSON…"));
    m_tabs->addTab(m_tree, tr("&Tree"));
    // QTreeView fetches more rows for an expanded array only while laying it out; scrolled to
    // the end of what is loaded, a long array must ask for its next chunk itself, or the tree
    // stops after its first chunks.
    connect(m_tree->verticalScrollBar(), &QScrollBar::valueChanged, this,
            &DocumentViewer::fetchVisible);
    connect(m_tree, &QTreeView::expanded, this, &DocumentViewer::fetchVisible,
            Qt::QueuedConnection);
    m_tabs->addTab(m_json, tr("&Extended JSON"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *copy = buttons->addButton(tr("&Copy JSON"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_json->toPlainText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_info);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
}

void DocumentViewer::setDocument(const QByteArray &document, const QString &title)
{
    setWindowTitle(tr("Document %1").arg(title));
    m_info->setText(tr("<b>_id %1</b> · %2 · %3 of the 16 MiB limit")
                        .arg(title.toHtmlEscaped(), Format::bytes(std::uint64_t(document.size())),
                             Format::percent(Format::ofLimit(std::uint64_t(document.size())))));
    m_model->setDocument(document);
    m_tree->resizeColumnToContents(DocumentTreeModel::Key);
    m_tree->resizeColumnToContents(DocumentTreeModel::Type);
    m_json->clear();
    const int generation = ++m_generation; // also stops the slices of an earlier document
    m_render->start(
        [document] {
            QString error;
            const QString json = DocumentOutline::toIndentedJson(document, &error);
            return error.isEmpty() ? json : error;
        },
        [this, generation](const QString &json) {
            m_pending = json;
            m_position = 0;
            appendChunk(generation);
        });
}

void DocumentViewer::appendChunk(int generation)
{
    if (generation != m_generation)
        return;
    qsizetype end = std::min(m_pending.size(), m_position + kSlice);
    // Cut at a line end so each slice is whole lines.
    if (end < m_pending.size()) {
        const qsizetype newline = m_pending.indexOf(QLatin1Char('\n'), end);
        end = newline < 0 ? m_pending.size() : newline + 1;
    }
    QTextCursor cursor(m_json->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(m_pending.mid(m_position, end - m_position));
    m_position = end;
    if (m_position < m_pending.size()) {
        QTimer::singleShot(0, this, [this, generation] { appendChunk(generation); });
        return;
    }
    m_pending.clear();
    m_json->moveCursor(QTextCursor::Start);
    emit jsonReady();
}

// Every expanded array or document whose last loaded row is on screen reads its next chunk.
void DocumentViewer::fetchVisible()
{
    fetchVisibleUnder(QModelIndex());
}

void DocumentViewer::fetchVisibleUnder(const QModelIndex &parent)
{
    const int rows = m_model->rowCount(parent);
    if (rows == 0)
        return;
    const QModelIndex last = m_model->index(rows - 1, 0, parent);
    if (parent.isValid() && m_model->canFetchMore(parent) &&
        m_tree->viewport()->rect().intersects(m_tree->visualRect(last))) {
        m_model->fetchMore(parent);
        return; // the view lays out again and scrolls on: the next call goes further
    }
    for (int r = 0; r < rows; ++r)
        if (const QModelIndex child = m_model->index(r, 0, parent); m_tree->isExpanded(child))
            fetchVisibleUnder(child);
}

} // namespace oe
