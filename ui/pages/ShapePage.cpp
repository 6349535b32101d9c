#include "pages/ShapePage.h"

#include "bson/DocumentId.h"
#include "charts/AnatomyChart.h"
#include "charts/Format.h"
#include "jobs/DocumentLoader.h"
#include "jobs/LatestJob.h"
#include "pages/SchemaVersionsBox.h"
#include "pages/ShapeFieldTree.h"
#include "report/OutlierDocument.h"
#include "report/ShapeCsv.h"
#include "workspace/SourceState.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

namespace {

constexpr int kOutlierChoices = 50;

OutlierRow rowOf(const ShapeFlag::Example &e)
{
    OutlierRow row;
    row.rawId = e.rawId;
    row.id = e.rawId.empty() ? QStringLiteral("(none)") : DocumentId::toRelaxedJson(e.rawId);
    row.docIndex = e.docIndex;
    return row;
}

} // namespace

ShapePage::ShapePage(QWidget *parent)
    : SourcePage(parent), m_summary(new QLabel(this)), m_versions(new SchemaVersionsBox(this)),
      m_flags(new QTableWidget(this)), m_query(new QLineEdit(this)), m_reach(new QLabel(this)),
      m_showDocuments(new QPushButton(tr("Show in Documents"), this)),
      m_guardType(new QPushButton(tr("&Guard type…"), this)),
      m_rewrite(new QPushButton(tr("Re&write…"), this)), m_tree(new ShapeFieldTree(this)),
      m_document(new QComboBox(this)), m_anatomy(new AnatomyChart(this)),
      m_anatomyNote(new QLabel(this)), m_job(new LatestJob(this))
{
    m_summary->setWordWrap(true);
    m_flags->setColumnCount(ColumnCount);
    m_flags->setHorizontalHeaderLabels({tr("Kind"), tr("Path"), tr("Type"), tr("Share"),
                                        tr("Count"), tr("Of"), tr("Detail"), tr("Example _ids"),
                                        tr("Version")});
    m_flags->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_flags->setSelectionMode(QAbstractItemView::SingleSelection);
    m_flags->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_flags->setAlternatingRowColors(true);
    m_flags->verticalHeader()->hide();
    m_flags->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_flags->horizontalHeader()->setSectionResizeMode(Detail, QHeaderView::Stretch);
    m_query->setReadOnly(true);
    m_query->setPlaceholderText(tr("Choose a flag to see the query that finds its documents"));
    m_query->setToolTip(tr("The filter that finds the flag's documents (Documents tab, mongosh)."));
    m_reach->setEnabled(false);
    m_document->setToolTip(tr("An outlier document (or a flag's example) to take apart."));
    m_anatomyNote->setWordWrap(true);
    m_anatomyNote->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *queryRow = new QHBoxLayout;
    queryRow->addWidget(new QLabel(tr("Query:"), this));
    queryRow->addWidget(m_query, 1);
    queryRow->addWidget(m_showDocuments);
    queryRow->addWidget(m_guardType);
    queryRow->addWidget(m_rewrite);
    m_rewrite->setToolTip(tr("Rewrite this field in place: keys used as data to an array, or a "
                             "mixed type to one (a live collection's flag)"));
    m_guardType->setToolTip(tr("Hold this field to its own types with a validator (a live "
                               "collection's mixed-type flag)"));
    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_flags, 1);
    topLayout->addLayout(queryRow);
    topLayout->addWidget(m_reach);

    auto *anatomy = new QWidget(this);
    auto *anatomyLayout = new QVBoxLayout(anatomy);
    anatomyLayout->setContentsMargins(0, 0, 0, 0);
    auto *chooser = new QHBoxLayout;
    chooser->addWidget(new QLabel(tr("Size anatomy of"), this));
    chooser->addWidget(m_document, 1);
    anatomyLayout->addLayout(chooser);
    anatomyLayout->addWidget(m_anatomy, 1);
    anatomyLayout->addWidget(m_anatomyNote);

    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_tree);
    bottom->addWidget(anatomy);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_versions);
    layout->addWidget(split, 1);

    connect(m_flags, &QTableWidget::currentCellChanged, this, [this](int row) { selectFlag(row); });
    connect(m_flags, &QTableWidget::cellActivated, this, [this](int row) { activateFlag(row); });
    connect(m_showDocuments, &QPushButton::clicked, this,
            [this] { activateFlag(m_flags->currentRow()); });
    connect(m_document, &QComboBox::activated, this, &ShapePage::loadAnatomy);
    connect(m_versions, &SchemaVersionsBox::versionsChosen, this,
            [this](ShapeOptions::Versions versions, const std::string &field) {
                if (SourceState *s = state())
                    s->setVersions(versions, field);
            });
    connect(m_rewrite, &QPushButton::clicked, this, [this] {
        if (const auto it = m_rewrites.find(m_flags->currentRow()); it != m_rewrites.end())
            emit rewriteRequested(m_source, it->second);
    });
    connect(m_guardType, &QPushButton::clicked, this, [this] {
        if (const auto it = m_typeRules.find(m_flags->currentRow()); it != m_typeRules.end())
            emit typeGuardRequested(m_source, it->second);
    });
    clear();
}

void ShapePage::clear()
{
    m_job->cancel();
    m_shown.clear();
    m_outliers.clear();
    m_choices.clear();
    m_shownAnatomy = {};
    m_anatomyPending = false;
    m_summary->setText(tr("Run an analysis to see the shape of the documents."));
    m_versions->clear();
    m_flags->setRowCount(0);
    m_tree->clear();
    m_query->clear();
    m_reach->clear();
    m_showDocuments->setEnabled(false);
    m_typeRules.clear();
    m_rewrites.clear();
    m_guardType->setEnabled(false);
    m_rewrite->setEnabled(false);
    m_document->clear();
    m_anatomy->clearAnatomy(tr("Choose a document to see what makes it big."));
    m_anatomyNote->clear();
}

void ShapePage::showResult(const AnalysisResult &result)
{
    clear();
    m_source = result.request.source;
    const ShapeReport &shape = result.shape;
    m_shown = shape.listed();
    m_outliers = result.outliers.rows;
    if (!shape.measured)
        m_summary->setText(shape.why.isEmpty() ? tr("The shape was not measured.") : shape.why);
    else
        m_summary->setText(
            tr("%n schema outliers of shape in %1 documents. Documents with more than %2 fields "
               "or nested deeper than %3 levels are outliers. Choose a flag for its query; "
               "double-click it for its documents.",
               nullptr, int(m_shown.size() - shape.explained()))
                .arg(Format::count(result.profile.documents),
                     Format::count(shape.fieldCountThreshold.value),
                     Format::count(shape.depthThreshold.value)));
    m_flags->setRowCount(int(m_shown.size()));
    for (int r = 0; r < int(m_shown.size()); ++r) {
        const ShapeFlag &flag = m_shown[std::size_t(r)];
        const FieldProfile *field = result.profile.field(flag.path);
        // A flag within one version, or a difference between versions, is no rule for the
        // whole collection: no guard, no rewrite.
        if (flag.version || !flag.explainedBy.isEmpty())
            continue;
        if (GuardRule::offersTypeRule(flag) && field)
            m_typeRules.emplace(r, GuardRule::forMixedType(flag, *field));
        if (auto family = RewriteConfig::forSparseFamily(flag, m_source.collectionName()))
            m_rewrites.emplace(r, *family); // the family into one array of {k, v}
        if (!field)
            continue;
        if (auto rewrite = RewriteConfig::forShapeFlag(
                flag, *field, result.request.source.collectionName(),
                qint64(result.request.shape.bigScalarBytes), RewriteConfig::Suggestion::ToComplete))
            m_rewrites.emplace(r, *rewrite);
    }
    for (int r = 0; r < int(m_shown.size()); ++r) {
        const ShapeFlag &flag = m_shown[std::size_t(r)];
        const QStringList cells = ShapeCsv::row(flag); // shape_outliers.csv's text
        const bool explained = !flag.explainedBy.isEmpty();
        for (int c = 0; c < ColumnCount; ++c) {
            QString text = cells.value(c);
            if (c == Version)
                text = flag.version ? flag.version->label
                       : flag.explainer == ShapeFlag::Explainer::Versions
                           ? tr("all: explained by the versions")
                           : QString();
            if (c == Share)
                text = Format::percent(flag.share(), flag.share() < 0.01 ? 2 : 1);
            auto *item = new QTableWidgetItem(Format::shortened(text, 200));
            item->setToolTip(explained ? flag.explainedBy : c == Share ? cells.value(c) : text);
            if (explained)
                item->setForeground(palette().brush(QPalette::Disabled, QPalette::Text));
            if (c >= Share && c <= Total)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_flags->setItem(r, c, item);
        }
    }
    m_versions->show(shape);
    if (shape.measured)
        m_tree->show(result.profile, shape);
    fillChoices({});
    m_anatomyPending = !m_choices.empty(); // the largest outlier, once the tab is seen
    if (isVisible())
        loadPending();
}

// A version field chosen here re-detects the flags: shown at once.
void ShapePage::bind(SourceState *state)
{
    connect(state, &SourceState::outliersChanged, this, [this] {
        if (isCurrent())
            showResult(this->state()->result());
    });
}

void ShapePage::showEvent(QShowEvent *event)
{
    SourcePage::showEvent(event);
    loadPending();
}

void ShapePage::loadPending()
{
    if (!m_anatomyPending)
        return;
    m_anatomyPending = false;
    loadAnatomy(0);
}

std::vector<ShapePage::Choice> ShapePage::outlierChoices() const
{
    std::vector<OutlierDocument> documents = OutlierDocument::group(m_outliers);
    std::stable_sort(
        documents.begin(), documents.end(),
        [](const OutlierDocument &a, const OutlierDocument &b) { return a.bsonSize > b.bsonSize; });
    std::vector<Choice> choices;
    for (const OutlierDocument &d : documents) {
        if (int(choices.size()) == kOutlierChoices)
            break;
        OutlierRow row;
        row.id = d.id;
        row.docIndex = d.docIndex;
        row.bsonSize = d.bsonSize;
        choices.push_back(
            {tr("outlier %1 · %2").arg(Format::shortened(d.id, 60), Format::bytes(d.bsonSize)),
             row});
    }
    return choices;
}

void ShapePage::fillChoices(const std::vector<Choice> &first)
{
    m_choices = first;
    for (Choice &c : outlierChoices())
        m_choices.push_back(std::move(c));
    m_document->clear();
    for (const Choice &c : m_choices)
        m_document->addItem(c.label);
    m_document->setEnabled(!m_choices.empty());
    if (m_choices.empty())
        m_anatomy->clearAnatomy(tr("No outlier documents to take apart."));
}

void ShapePage::selectFlag(int row)
{
    if (row < 0 || row >= int(m_shown.size()))
        return;
    const ShapeFlag &flag = m_shown[std::size_t(row)];
    const ShapeQuery query = ShapeQuery::of(flag);
    const bool live = m_source.kind == SourceRef::Kind::Collection;
    m_query->setText(query.filter);
    m_query->setCursorPosition(0);
    switch (query.reach) {
    case ShapeQuery::Reach::Every:
        m_reach->setText(tr("Finds every document behind the flag."));
        break;
    case ShapeQuery::Reach::Examples:
        m_reach->setText(tr("Finds the flag's %n example documents (no filter names the rest).",
                            nullptr, int(flag.examples.size())));
        break;
    case ShapeQuery::Reach::None:
        m_reach->setText(tr("No query: the example documents have no _id."));
        break;
    }
    m_showDocuments->setText(live ? tr("Show in Documents") : tr("Open example"));
    m_showDocuments->setEnabled(live ? query.reach != ShapeQuery::Reach::None
                                     : !flag.examples.empty());
    m_guardType->setEnabled(live && m_typeRules.count(row) > 0);
    m_rewrite->setEnabled(live && m_rewrites.count(row) > 0);
    if (!flag.path.empty())
        m_tree->reveal(flag.path);
    std::vector<Choice> examples;
    for (const ShapeFlag::Example &e : flag.examples) {
        const OutlierRow r = rowOf(e);
        examples.push_back(
            {tr("%1 example %2").arg(ShapeFlag::kindName(flag.kind), Format::shortened(r.id, 60)),
             r});
    }
    fillChoices(examples);
    if (!examples.empty())
        loadAnatomy(0);
}

void ShapePage::activateFlag(int row)
{
    if (row < 0 || row >= int(m_shown.size()))
        return;
    if (m_flags->currentRow() != row)
        m_flags->setCurrentCell(row, 0); // selects it (query, tree, anatomy)
    const ShapeFlag &flag = m_shown[std::size_t(row)];
    const ShapeQuery query = ShapeQuery::of(flag);
    if (m_source.kind == SourceRef::Kind::Collection && query.reach != ShapeQuery::Reach::None)
        emit documentsRequested(query.filter);
    else if (!flag.examples.empty())
        emit documentRequested(rowOf(flag.examples.front()));
}

void ShapePage::loadAnatomy(int choice)
{
    if (choice < 0 || choice >= int(m_choices.size()))
        return;
    m_anatomyPending = false;
    if (m_document->currentIndex() != choice)
        m_document->setCurrentIndex(choice);
    const Choice c = m_choices[std::size_t(choice)];
    m_anatomyNote->setText(tr("Loading %1…").arg(Format::shortened(c.row.id, 80)));
    struct TakenApart
    {
        SizeAnatomy anatomy;
        QString error;
    };
    const SourceRef source = m_source;
    m_job->start(
        [source, row = c.row](const std::atomic<bool> &cancelled) {
            TakenApart t;
            const QByteArray document =
                DocumentLoader::fetch(source, row.docIndex, row.id, cancelled, &t.error);
            if (t.error.isEmpty())
                t.anatomy = SizeAnatomy::of(document, &t.error);
            return t;
        },
        [this, id = c.row.id](const TakenApart &t) {
            m_shownAnatomy = t.anatomy;
            if (!t.error.isEmpty()) {
                m_anatomy->clearAnatomy(
                    tr("Could not take %1 apart.").arg(Format::shortened(id, 60)));
                m_anatomyNote->setText(t.error);
                emit anatomyShown();
                return;
            }
            const SizeAnatomy &a = t.anatomy;
            m_anatomy->setAnatomy(a, Format::shortened(id, 60));
            const SizeAnatomy::Part &h = a.heaviest;
            QString note =
                tr("%1 top-level fields. The weight sits in %2: %3, %4 (%5 of the "
                   "document)")
                    .arg(Format::count(a.fields.size()), a.heaviestPath, h.type,
                         Format::bytes(std::uint64_t(h.bytes)), Format::percent(a.share(h.bytes)));
            if (h.children > 0)
                note += tr(", spread over %n fields or elements, none holding half of it.", nullptr,
                           int(std::min<qint64>(h.children, INT32_MAX)));
            else
                note += QLatin1Char('.');
            m_anatomyNote->setText(note);
            emit anatomyShown();
        });
}

} // namespace oe
