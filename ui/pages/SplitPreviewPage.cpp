#include "pages/SplitPreviewPage.h"

#include "bson/DocumentId.h"
#include "charts/Format.h"
#include "explore/AnalysisSession.h"
#include "jobs/DocumentLoader.h"
#include "split/SplitPlanner.h"
#include "widgets/ChartPanel.h"
#include "widgets/SplitExampleView.h"
#include "workspace/SourceState.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <limits>

namespace oe {

SplitPreviewPage::SplitPreviewPage(QWidget *parent)
    : SourcePage(parent), m_path(new QComboBox(this)), m_keep(new QSpinBox(this)),
      m_pageSize(new QSpinBox(this)), m_document(new QComboBox(this)),
      m_docSummary(new QLabel(this)), m_example(new SplitExampleView(this)),
      m_planSummary(new QLabel(this)), m_panel(new ChartPanel(HistogramChart::Unit::Bytes, this)),
      m_loader(new DocumentLoader(this))
{
    m_keep->setRange(0, std::numeric_limits<int>::max());
    m_keep->setGroupSeparatorShown(true);
    m_keep->setKeyboardTracking(false);
    m_keep->setToolTip(tr("Elements left in the document; the rest move to overflow pages."));
    m_pageSize->setRange(1, 1000000);
    m_pageSize->setValue(int(SourceState::kDefaultPageSize));
    m_pageSize->setGroupSeparatorShown(true);
    m_pageSize->setKeyboardTracking(false);
    m_pageSize->setToolTip(tr("Elements per overflow document."));
    m_document->setToolTip(tr("The documents with the longest arrays at this path."));
    m_panel->setHint(tr("Wheel: zoom · drag: pan"));

    auto *form = new QFormLayout;
    form->addRow(tr("Array pa&th:"), m_path);
    auto *numbers = new QHBoxLayout;
    numbers->addWidget(m_keep);
    auto *pageSizeLabel = new QLabel(tr("Pa&ge size:"), this);
    pageSizeLabel->setBuddy(m_pageSize);
    numbers->addWidget(pageSizeLabel);
    numbers->addWidget(m_pageSize);
    numbers->addStretch(1);
    auto *keepLabel = new QLabel(tr("&Keep:"), this);
    keepLabel->setBuddy(m_keep);
    form->addRow(keepLabel, numbers);
    auto *documentRow = new QHBoxLayout;
    documentRow->addWidget(m_document, 1);
    auto *migrate = new QPushButton(tr("&Migrate…"), this);
    migrate->setToolTip(tr("Apply this split, guided: checks, progress, verify and rollback."));
    documentRow->addWidget(migrate);
    auto *documentLabel = new QLabel(tr("&Document:"), this);
    documentLabel->setBuddy(m_document);
    form->addRow(documentLabel, documentRow);
    connect(migrate, &QPushButton::clicked, this, &SplitPreviewPage::migrateRequested);

    auto *planBox = new QWidget(this);
    auto *planLayout = new QVBoxLayout(planBox);
    planLayout->setContentsMargins(0, 0, 0, 0);
    m_planSummary->setWordWrap(true);
    planLayout->addWidget(m_planSummary);
    planLayout->addWidget(m_panel, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_example);
    split->addWidget(planBox);

    m_docSummary->setWordWrap(true);
    m_docSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_docSummary);
    layout->addWidget(split, 1);

    wire();
    clear();
}

SplitPreviewPage::~SplitPreviewPage() = default;

void SplitPreviewPage::wire()
{
    connect(m_path, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_setting && isCurrent())
            state()->choosePath(path());
    });
    connect(m_keep, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_setting && isCurrent())
            state()->setKeep(std::uint64_t(v));
    });
    connect(m_pageSize, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_setting && isCurrent())
            state()->setPageSize(std::uint64_t(v));
    });
    connect(m_document, &QComboBox::currentIndexChanged, this, [this] { requestDocument(); });
    connect(m_example, &SplitExampleView::shown, this, &SplitPreviewPage::showDocumentPreview);
    connect(m_loader, &DocumentLoader::loaded, this, &SplitPreviewPage::showPreview);
    connect(m_loader, &DocumentLoader::failed, this, [this](const QString &message) {
        m_docSummary->setText(tr("Could not load the document: %1").arg(message));
    });
}

QString SplitPreviewPage::path() const
{
    return m_path->currentText();
}

std::uint64_t SplitPreviewPage::keep() const
{
    return std::uint64_t(m_keep->value());
}

void SplitPreviewPage::bind(SourceState *state)
{
    connect(state, &SourceState::pathChanged, this, [this](const QString &path) {
        if (isCurrent())
            showPath(path);
    });
    connect(state, &SourceState::keepChanged, this, [this](std::uint64_t keep) {
        if (isCurrent())
            showKeep(keep);
    });
    connect(state, &SourceState::pageSizeChanged, this, [this](std::uint64_t pageSize) {
        if (isCurrent())
            showPageSize(pageSize);
    });
    connect(state, &SourceState::planStarted, this, [this] {
        if (isCurrent())
            m_planSummary->setText(tr("Predicting the sizes after the split…"));
    });
    connect(state, &SourceState::planChanged, this, [this] {
        if (isCurrent())
            showPlan();
    });
}

void SplitPreviewPage::clearDocumentViews()
{
    m_setting = true;
    m_document->clear();
    m_setting = false;
    m_example->clear();
}

void SplitPreviewPage::clear()
{
    m_setting = true;
    m_path->clear();
    m_setting = false;
    clearDocumentViews();
    m_documentBytes.clear();
    m_documentId.clear();
    m_docSummary->setText(tr("Run an analysis first: the preview needs an array to split."));
    m_planSummary->clear();
    m_panel->chart()->setBins({});
    m_panel->chart()->clearComparison();
}

void SplitPreviewPage::showResult(const AnalysisResult &result)
{
    clear();
    m_setting = true;
    for (const auto &rec : result.recommendations)
        if (rec.splittable)
            m_path->addItem(QString::fromStdString(rec.path));
    m_pageSize->setValue(
        int(std::min<std::uint64_t>(state()->pageSize(), std::uint64_t(m_pageSize->maximum()))));
    m_setting = false;
    if (m_path->count() == 0) {
        m_docSummary->setText(tr("No splittable array in the analysed documents."));
        return;
    }
    showPath(state()->path());
}

// The state's path, with its keep; a path that cannot be split shows why.
void SplitPreviewPage::showPath(const QString &path)
{
    m_setting = true;
    m_path->setCurrentIndex(m_path->findText(path));
    m_keep->setValue(
        int(std::min<std::uint64_t>(state()->keep(), std::uint64_t(m_keep->maximum()))));
    m_setting = false;
    if (m_path->currentIndex() < 0) {
        clearDocumentViews();
        const SplitRecommendation *rec = state()->result().recommendationFor(path.toStdString());
        m_docSummary->setText(rec ? tr("%1 cannot be split: %2").arg(path, rec->explanation)
                                  : tr("Choose an array path to preview its split."));
        m_planSummary->clear();
        return;
    }
    fillDocuments();
    showPlan();
}

void SplitPreviewPage::showKeep(std::uint64_t keep)
{
    m_setting = true;
    m_keep->setValue(int(std::min<std::uint64_t>(keep, std::uint64_t(m_keep->maximum()))));
    m_setting = false;
    requestDocument();
}

void SplitPreviewPage::showPageSize(std::uint64_t pageSize)
{
    m_setting = true;
    m_pageSize->setValue(
        int(std::min<std::uint64_t>(pageSize, std::uint64_t(m_pageSize->maximum()))));
    m_setting = false;
    requestDocument();
}

void SplitPreviewPage::fillDocuments()
{
    m_setting = true;
    m_document->clear();
    if (const FieldProfile *f = state()->result().profile.field(path().toStdString())) {
        for (const auto &cand : f->longestPerDocument.largest(50)) {
            const QString id = DocumentId::toRelaxedJson(cand.rawId);
            m_document->addItem(
                tr("%1 — %2 elements, %3")
                    .arg(id, Format::count(cand.value), Format::bytes(cand.docSize)),
                QVariantList{id, qulonglong(cand.docIndex)});
        }
    }
    m_setting = false;
    requestDocument();
}

void SplitPreviewPage::requestDocument()
{
    if (m_setting || m_document->currentIndex() < 0)
        return;
    const QVariantList data = m_document->currentData().toList();
    const QString id = data.value(0).toString();
    if (id == m_documentId && !m_documentBytes.isEmpty()) {
        showPreview(m_documentBytes, id);
        return;
    }
    m_docSummary->setText(tr("Loading %1…").arg(id));
    m_loader->load(state()->result().request.source, data.value(1).toULongLong(), id);
}

SplitConfig SplitPreviewPage::config() const
{
    return state()->splitConfig();
}

void SplitPreviewPage::showPreview(const QByteArray &document, const QString &idJson)
{
    m_documentBytes = document;
    m_documentId = idJson;
    m_example->show(document, idJson, config());
}

void SplitPreviewPage::showDocumentPreview(const DocumentPreview &p, const QString &idJson,
                                           const SplitConfig &config)
{
    if (!p.problem.isEmpty()) {
        m_docSummary->setText(tr("%1: %2").arg(idJson, p.problem));
        emit previewReady();
        return;
    }
    if (!p.affected) {
        m_docSummary->setText(
            tr("%1 (%2) has no more than %3 elements in %4: it stays as it is.")
                .arg(idJson, Format::bytes(p.sizeBefore), Format::count(keep()), config.field));
        emit previewReady();
        return;
    }
    std::uint64_t pageBytes = 0;
    for (auto s : p.pageSizes)
        pageBytes += s;
    m_docSummary->setText(tr("<b>%1</b>: %2 before → primary %3 (%4 of 16 MiB) + %5 overflow "
                             "document(s) in <i>%6</i>, %7 in all.")
                              .arg(idJson.toHtmlEscaped(), Format::bytes(p.sizeBefore),
                                   Format::bytes(p.primarySize),
                                   Format::percent(Format::ofLimit(p.primarySize)),
                                   Format::count(std::uint64_t(p.pageJson.size())),
                                   config.overflowCollection, Format::bytes(pageBytes)));
    emit previewReady();
}

void SplitPreviewPage::showPlan()
{
    if (!state()->planIsCurrent()) {
        m_planSummary->setText(state()->isPlanning() ? tr("Predicting the sizes after the split…")
                                                     : QString());
        return;
    }
    const SplitPlan &plan = state()->plan();
    const SplitConfig config = state()->splitConfig();
    if (plan.error.isError()) {
        m_planSummary->setText(tr("Could not predict the split: %1").arg(plan.error.toString()));
        emit planReady();
        return;
    }
    m_panel->setExportName(QStringLiteral("%1-%2-keep-%3-sizes-after-split")
                               .arg(config.collection, config.field)
                               .arg(config.keep));
    m_panel->chart()->setBins(plan.sizesBefore.histogram().bins());
    m_panel->chart()->setComparison(plan.sizesAfter.histogram().bins(), tr("after the split"),
                                    tr("before"));
    if (plan.affected == 0) {
        m_planSummary->setText(
            tr("Keeping %1 of <b>%2</b>: no document has a longer array, so none of the %3 "
               "would split; the largest stays %4.")
                .arg(Format::count(std::uint64_t(config.keep)), config.field.toHtmlEscaped(),
                     Format::count(plan.documents), Format::bytes(plan.sizesBefore.max())));
        emit planReady();
        return;
    }
    m_planSummary->setText(
        tr("Keeping %1 of <b>%2</b>: %3 of %4 documents split, %5 elements (%6) move into %7 "
           "overflow documents; largest primary after %8 (before %9).%10")
            .arg(Format::count(std::uint64_t(config.keep)), config.field.toHtmlEscaped(),
                 Format::count(plan.affected), Format::count(plan.documents),
                 Format::count(plan.elementsMoved), Format::bytes(plan.bytesMoved),
                 Format::count(plan.overflowDocuments), Format::bytes(plan.largestPrimaryAfter),
                 Format::bytes(plan.sizesBefore.max()))
            .arg(plan.invalidDocuments ? tr(" %1 document(s) cannot be split (%2).")
                                             .arg(Format::count(plan.invalidDocuments),
                                                  plan.problems.value(0).toHtmlEscaped())
                                       : QString()));
    emit planReady();
}

} // namespace oe
