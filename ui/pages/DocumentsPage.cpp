#include "pages/DocumentsPage.h"

#include "charts/Format.h"
#include "jobs/LatestJob.h"
#include "viewer/DocumentViewer.h"
#include "viewer/LogicalDocumentDialog.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace oe {

namespace {

QTableWidgetItem *cell(const QString &text, bool number = false)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

DocumentsPage::DocumentsPage(QWidget *parent)
    : QWidget(parent), m_filter(new QLineEdit(this)), m_projection(new QLineEdit(this)),
      m_sort(new QLineEdit(this)), m_limit(new QSpinBox(this)), m_skip(new QSpinBox(this)),
      m_find(new QPushButton(tr("Fi&nd"), this)),
      m_previous(new QPushButton(tr("◀ Previous"), this)),
      m_next(new QPushButton(tr("Next ▶"), this)),
      m_logical(new QPushButton(tr("&Logical document…"), this)), m_problem(new QLabel(this)),
      m_status(new QLabel(this)), m_table(new QTableWidget(0, 5, this)), m_job(new LatestJob(this))
{
    m_filter->setPlaceholderText(tr("{\"status\": \"active\"}"));
    m_projection->setPlaceholderText(tr("{\"name\": 1}"));
    m_sort->setPlaceholderText(tr("{\"_id\": -1}"));
    for (QLineEdit *edit : {m_filter, m_projection, m_sort}) {
        edit->setClearButtonEnabled(true);
        connect(edit, &QLineEdit::textChanged, this, &DocumentsPage::validate);
        connect(edit, &QLineEdit::returnPressed, this, &DocumentsPage::find);
    }
    m_filter->setToolTip(tr("Extended JSON query filter, as in find()."));
    m_limit->setRange(1, int(DocumentQuery::kMaxLimit));
    m_limit->setValue(20);
    m_limit->setPrefix(tr("limit "));
    m_skip->setRange(0, std::numeric_limits<int>::max());
    m_skip->setPrefix(tr("skip "));
    m_skip->setGroupSeparatorShown(true);
    auto *form = new QFormLayout;
    form->addRow(tr("F&ilter:"), m_filter);
    auto *second = new QHBoxLayout;
    second->addWidget(m_projection, 1);
    auto *sortLabel = new QLabel(tr("Sor&t:"), this);
    sortLabel->setBuddy(m_sort);
    second->addWidget(sortLabel);
    second->addWidget(m_sort, 1);
    auto *projectionLabel = new QLabel(tr("Pro&jection:"), this);
    projectionLabel->setBuddy(m_projection); // its field is a row of two: say whose mnemonic
    form->addRow(projectionLabel, second);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_limit);
    buttons->addWidget(m_skip);
    buttons->addWidget(m_find);
    buttons->addWidget(m_problem, 1);
    m_problem->setObjectName(QStringLiteral("queryProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #d9480f"));

    m_table->setHorizontalHeaderLabels(
        {tr("_id"), tr("BSON size"), tr("longest array"), tr("length"), tr("split")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->setToolTip(tr("Double-click a document to open it; a split one opens stitched."));
    auto *paging = new QHBoxLayout;
    paging->addWidget(m_previous);
    paging->addWidget(m_next);
    paging->addWidget(m_status, 1);
    paging->addWidget(m_logical);
    m_status->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);
    layout->addLayout(paging);

    connect(m_find, &QPushButton::clicked, this, [this] {
        m_skip->setValue(0);
        find();
    });
    connect(m_next, &QPushButton::clicked, this, &DocumentsPage::nextPage);
    connect(m_previous, &QPushButton::clicked, this, &DocumentsPage::previousPage);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row) {
        if (row < int(m_page.documents.size()) && m_page.documents[std::size_t(row)].flagged)
            openLogical(row);
        else
            openDocument(row);
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        updateButtons();
        const int row = m_table->currentRow();
        if (row >= 0 && row < int(m_page.documents.size()) &&
            !m_page.documents[std::size_t(row)].id.isEmpty())
            emit documentSelected(m_page.documents[std::size_t(row)].id);
    });
    connect(m_logical, &QPushButton::clicked, this, [this] { openLogical(m_table->currentRow()); });
    updateButtons();
}

void DocumentsPage::setSource(const SourceRef &source, const SplitConfig &layout)
{
    m_layout = layout;
    if (source.key() == m_source.key())
        return;
    m_source = source;
    m_job->cancel();
    m_page = {};
    m_table->setRowCount(0);
    const bool live = source.kind == SourceRef::Kind::Collection;
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_filter, m_projection, m_sort, m_limit, m_skip})
        w->setEnabled(live);
    m_status->setText(live ? tr("Press Find to list the documents of %1.").arg(source.displayName())
                           : tr("The Documents tab browses a collection on a connection; a "
                                "dump's documents open from Outliers."));
    validate();
}

void DocumentsPage::showQuery(const QString &filter)
{
    m_filter->setText(filter);
    m_projection->clear();
    m_sort->clear();
    m_skip->setValue(0);
    validate();
    find();
}

DocumentQuery DocumentsPage::query() const
{
    DocumentQuery q;
    q.filter = m_filter->text();
    q.projection = m_projection->text();
    q.sort = m_sort->text();
    q.skip = m_skip->value();
    q.limit = m_limit->value();
    q.flagField = m_layout.flagField.isEmpty() ? QStringLiteral("has_extras") : m_layout.flagField;
    return q;
}

// Each part checked as it is typed (libbson's parser): the first problem is named, the part
// framed, and Find waits until the query can be sent.
void DocumentsPage::validate()
{
    QString first;
    for (const auto &[edit, part] : {std::pair{m_filter, QStringLiteral("filter")},
                                     std::pair{m_projection, QStringLiteral("projection")},
                                     std::pair{m_sort, QStringLiteral("sort")}}) {
        const QString problem = DocumentQuery::problemOf(part, edit->text());
        edit->setStyleSheet(problem.isEmpty() ? QString()
                                              : QStringLiteral("border: 1px solid #d9480f"));
        if (first.isEmpty())
            first = problem;
    }
    m_problem->setText(first);
    updateButtons();
}

void DocumentsPage::find()
{
    const DocumentQuery q = query();
    if (m_source.kind != SourceRef::Kind::Collection || !q.problem().isEmpty())
        return;
    m_status->setText(tr("Finding…"));
    const SourceRef source = m_source;
    m_job->start(
        [source, q](const std::atomic<bool> &cancelled) {
            return CollectionBrowser::find(source.settings, source.database, source.collection, q,
                                           &cancelled);
        },
        [this](const BrowsedPage &page) { showPage(page); });
}

void DocumentsPage::nextPage()
{
    if (!m_page.hasMore)
        return;
    m_skip->setValue(m_skip->value() + m_limit->value());
    find();
}

void DocumentsPage::previousPage()
{
    if (m_skip->value() == 0)
        return;
    m_skip->setValue(std::max(0, m_skip->value() - m_limit->value()));
    find();
}

void DocumentsPage::showPage(const BrowsedPage &page)
{
    m_page = page;
    m_table->setRowCount(0);
    if (page.error.isError()) {
        m_status->setText(tr("Could not list the documents: %1").arg(page.error.toString()));
        updateButtons();
        emit pageShown();
        return;
    }
    m_table->setRowCount(int(page.documents.size()));
    for (int r = 0; r < int(page.documents.size()); ++r) {
        const BrowsedDocument &d = page.documents[std::size_t(r)];
        m_table->setItem(r, 0, cell(Format::shortened(d.id, 120)));
        m_table->setItem(r, 1, cell(Format::bytes(d.size), true));
        m_table->setItem(r, 2, cell(d.longestArrayPath));
        m_table->setItem(
            r, 3,
            cell(d.longestArrayPath.isEmpty() ? QString() : Format::count(d.longestArrayLength),
                 true));
        m_table->setItem(r, 4, cell(d.flagged ? tr("split") : QString()));
    }
    const qint64 first = m_skip->value();
    const QString matching =
        page.matching ? tr(" of %1 matching").arg(Format::count(std::uint64_t(*page.matching)))
                      : tr(" (the count took too long)");
    m_status->setText(page.documents.empty()
                          ? tr("No document matches.")
                          : tr("Documents %1–%2%3.")
                                .arg(Format::count(std::uint64_t(first + 1)),
                                     Format::count(std::uint64_t(first) + page.documents.size()),
                                     matching));
    updateButtons();
    emit pageShown();
}

void DocumentsPage::updateButtons()
{
    const bool live = m_source.kind == SourceRef::Kind::Collection;
    m_find->setEnabled(live && m_problem->text().isEmpty());
    m_previous->setEnabled(live && m_skip->value() > 0 && !m_page.documents.empty());
    m_next->setEnabled(live && m_page.hasMore);
    const int row = m_table->currentRow();
    m_logical->setEnabled(row >= 0 && row < int(m_page.documents.size()) &&
                          m_page.documents[std::size_t(row)].flagged);
}

QString DocumentsPage::problemText() const
{
    return m_problem->text();
}

QString DocumentsPage::statusText() const
{
    return m_status->text();
}

void DocumentsPage::openDocument(int row)
{
    if (row < 0 || row >= int(m_page.documents.size()))
        return;
    const BrowsedDocument &d = m_page.documents[std::size_t(row)];
    auto *viewer = new DocumentViewer(this);
    viewer->setAttribute(Qt::WA_DeleteOnClose);
    viewer->setDocument(d.bson, d.id);
    viewer->show();
}

LogicalDocumentDialog *DocumentsPage::openLogical(int row)
{
    if (row < 0 || row >= int(m_page.documents.size()))
        return nullptr;
    auto *dialog = new LogicalDocumentDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    SplitConfig config = m_layout;
    config.collection = m_source.collection;
    dialog->load(m_source, config, m_page.documents[std::size_t(row)].id);
    dialog->show();
    return dialog;
}

} // namespace oe
