#include "wizard/WizardAnalysisPage.h"

#include "analysis/ThresholdImpact.h"
#include "charts/Format.h"
#include "wizard/MigrationWizard.h"
#include "workspace/KeepFigures.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

namespace {

struct FieldCost
{
    const FieldProfile *field = nullptr;
    const SplitRecommendation *rec = nullptr;
    ThresholdImpact impact;
    std::uint64_t overHalfLimit = 0;
};

std::vector<FieldCost> costs(const AnalysisResult &result)
{
    constexpr std::uint64_t kHalfLimit = 8u << 20;
    std::vector<FieldCost> out;
    for (const FieldProfile &f : result.profile.fields) {
        const SplitRecommendation *rec = result.recommendationFor(f.path);
        if (f.arrays == 0 || !rec || !rec->splittable)
            continue;
        FieldCost c{&f, rec, ThresholdImpact::forArray(result.profile, f, rec->keep), 0};
        for (const auto &cand : f.longestPerDocument.above(rec->keep))
            c.overHalfLimit += cand.docSize > kHalfLimit ? 1 : 0;
        out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [](const FieldCost &a, const FieldCost &b) {
        return a.impact.bytesMoved > b.impact.bytesMoved;
    });
    return out;
}

constexpr int kBytesColumn = 2; // "Bytes that would move"

} // namespace

WizardAnalysisPage::WizardAnalysisPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_summary(new QLabel(this)),
      m_table(new QTableWidget(this)), m_others(new QTableWidget(this)),
      m_othersTitle(new QLabel(tr("Other outliers, cured without a split:"), this)),
      m_rescan(new QPushButton(tr("Run a &full scan"), this))
{
    setTitle(tr("Analysis"));
    setSubTitle(tr("Which outlier to cure: the arrays to split, those whose outliers cost the "
                   "most first; then the other outliers and their remedies."));
    m_summary->setWordWrap(true);
    m_table->setColumnCount(5);
    m_table->setHorizontalHeaderLabels({tr("Array field"), tr("Documents over the keep"),
                                        tr("Bytes that would move"), tr("Over 8 MiB"),
                                        tr("Recommended keep")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_others->setObjectName(QStringLiteral("otherOutliers"));
    m_others->setColumnCount(4);
    m_others->setHorizontalHeaderLabels(
        {tr("Field"), tr("Outlier"), tr("What the analysis found"), tr("Remedy")});
    m_others->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_others->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    for (QTableWidget *table : {m_table, m_others}) {
        table->verticalHeader()->hide();
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setSelectionMode(QAbstractItemView::SingleSelection);
    }
    m_rescan->setToolTip(tr("Read every document again (the current analysis may be a sample)."));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_othersTitle);
    layout->addWidget(m_others, 2);
    layout->addWidget(m_rescan, 0, Qt::AlignLeft);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &WizardAnalysisPage::chooseArray);
    connect(m_others, &QTableWidget::itemSelectionChanged, this, &WizardAnalysisPage::chooseOther);
    connect(m_rescan, &QPushButton::clicked, this, &WizardAnalysisPage::runFullScan);
    // The chosen field's bytes: the plan's exact figure once it is current (KeepFigures).
    if (SourceState *state = m_wizard->state())
        connect(state, &SourceState::planChanged, this, &WizardAnalysisPage::showBytesMoved);
    // The workspace runs the scan and, when it is complete, puts it in the source's state.
    Workspace *workspace = m_wizard->workspace();
    connect(workspace, &Workspace::progressed, this,
            [this](const SourceRef &source, const AnalysisProgress &p) {
                if (m_scanning && source.key() == m_wizard->source().key())
                    m_summary->setText(p.text());
            });
    connect(workspace, &Workspace::finished, this, [this](const AnalysisResult &result) {
        if (!m_scanning || result.request.source.key() != m_wizard->source().key())
            return;
        m_scanning = false;
        m_rescan->setEnabled(true);
        m_wizard->appendLog(tr("Full scan: %1 documents").arg(result.profile.documents));
        fill();
    });
}

void WizardAnalysisPage::initializePage()
{
    fill();
}

void WizardAnalysisPage::fill()
{
    SourceState *state = m_wizard->state();
    if (!state)
        return;
    const AnalysisResult &r = state->analysis();
    m_summary->setText(tr("The current analysis: %1 documents of %2 (%3) in %4.")
                           .arg(Format::count(r.profile.documents), r.request.source.displayName(),
                                r.profile.mode, Format::duration(r.profile.seconds)));
    m_filling = true;
    const std::vector<FieldCost> rows = costs(r);
    m_table->setRowCount(int(rows.size()));
    int current = -1;
    for (int i = 0; i < int(rows.size()); ++i) {
        const FieldCost &c = rows[std::size_t(i)];
        const QStringList cells{
            QString::fromStdString(c.field->path), Format::count(c.impact.documentsOver),
            KeepFigures::bytesMoved(*state, QString::fromStdString(c.field->path), c.rec->keep),
            Format::count(c.overHalfLimit), Format::count(c.rec->keep)};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells[col]);
            if (col > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(c.rec->explanation);
            m_table->setItem(i, col, item);
        }
        if (cells[0] == state->path())
            current = i;
    }
    fillOthers();
    m_filling = false;
    if (m_wizard->remedy()) {
        for (int row = 0; row < m_others->rowCount(); ++row)
            if (m_others->item(row, 0)->data(Qt::UserRole).toInt() == m_remedyRow)
                m_others->selectRow(row);
    } else {
        if (current < 0 && !rows.empty())
            current = 0;
        if (current >= 0)
            m_table->selectRow(current);
    }
    emit completeChanged();
}

void WizardAnalysisPage::fillOthers()
{
    m_candidates = WizardRemedy::candidates(m_wizard->state()->analysis());
    m_others->setRowCount(int(m_candidates.size()));
    for (int i = 0; i < int(m_candidates.size()); ++i) {
        const WizardRemedy &r = m_candidates[std::size_t(i)];
        const QStringList cells{QString::fromStdString(r.flag.path), r.outlierName(), r.flag.detail,
                                r.name()};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(Format::shortened(cells[col], 200));
            item->setToolTip(cells[col]);
            item->setData(Qt::UserRole, i);
            m_others->setItem(i, col, item);
        }
    }
    m_othersTitle->setVisible(!m_candidates.empty());
    m_others->setVisible(!m_candidates.empty());
}

// An array row: the split, its field chosen (the other outliers' choice cleared).
void WizardAnalysisPage::chooseArray()
{
    const QList<QTableWidgetItem *> chosen = m_table->selectedItems();
    if (m_filling || chosen.isEmpty() || !m_wizard->state())
        return;
    m_filling = true;
    m_others->clearSelection();
    m_filling = false;
    m_wizard->setRemedy(std::nullopt);
    m_wizard->state()->choosePath(m_table->item(chosen.first()->row(), 0)->text());
    emit completeChanged();
}

// Another outlier's row: its remedy, and no split.
void WizardAnalysisPage::chooseOther()
{
    const QList<QTableWidgetItem *> chosen = m_others->selectedItems();
    if (m_filling || chosen.isEmpty())
        return;
    m_filling = true;
    m_table->clearSelection();
    m_filling = false;
    m_remedyRow = chosen.first()->data(Qt::UserRole).toInt();
    m_wizard->setRemedy(m_candidates.at(std::size_t(m_remedyRow)));
    m_wizard->appendLog(tr("Chosen: %1 at %2 (%3)")
                            .arg(m_wizard->remedy()->outlierName(),
                                 QString::fromStdString(m_wizard->remedy()->flag.path),
                                 m_wizard->remedy()->name()));
    emit completeChanged();
}

int WizardAnalysisPage::nextId() const
{
    return m_wizard->remedy() ? MigrationWizard::RemedyPageId : MigrationWizard::ThresholdPageId;
}

void WizardAnalysisPage::showBytesMoved()
{
    SourceState *state = m_wizard->state();
    if (!state || m_filling)
        return;
    const AnalysisResult &r = state->analysis();
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem *path = m_table->item(row, 0);
        QTableWidgetItem *bytes = m_table->item(row, kBytesColumn);
        const SplitRecommendation *rec =
            path ? r.recommendationFor(path->text().toStdString()) : nullptr;
        if (bytes && rec)
            bytes->setText(KeepFigures::bytesMoved(*state, path->text(), rec->keep));
    }
}

bool WizardAnalysisPage::isComplete() const
{
    SourceState *state = m_wizard->state();
    if (!state || m_scanning)
        return false;
    if (m_wizard->remedy())
        return true;
    const SplitRecommendation *rec =
        state->analysis().recommendationFor(state->path().toStdString());
    return rec && rec->splittable;
}

void WizardAnalysisPage::runFullScan()
{
    AnalysisRequest request = m_wizard->state()->analysis().request;
    request.selection.mode = AnalysisOptions::Mode::Full;
    request.threads = 1; // one core stays with the window
    // After the window's own analysis, if one runs; the current result stays until then.
    m_scanning = true;
    m_rescan->setEnabled(false);
    Workspace *workspace = m_wizard->workspace();
    workspace->enqueue(request, Workspace::Previous::KeptUntilComplete);
    m_summary->setText(workspace->isAnalysing(request.source)
                           ? tr("Reading every document…")
                           : tr("Waiting for the running analysis to finish…"));
    emit completeChanged();
}

} // namespace oe
