#include "pages/SizesPage.h"

#include "analysis/ThresholdImpact.h"
#include "charts/Format.h"
#include "widgets/ChartPanel.h"
#include "widgets/ThresholdControl.h"
#include "workspace/SourceState.h"

#include <QVBoxLayout>

namespace oe {

SizesPage::SizesPage(QWidget *parent)
    : SourcePage(parent), m_panel(new ChartPanel(HistogramChart::Unit::Bytes, this)),
      m_control(new ThresholdControl(tr("Size &threshold:"), tr(" B"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_control);
    layout->addWidget(m_panel, 1);
    connect(m_control, &ThresholdControl::valueChanged, this, [this](std::uint64_t v) {
        if (isCurrent())
            state()->setSizeThreshold(v);
    });
    connect(m_panel->chart(), &HistogramChart::thresholdDragged, this, [this](double v) {
        if (isCurrent())
            state()->setSizeThreshold(std::uint64_t(v));
    });
    clear();
}

void SizesPage::bind(SourceState *state)
{
    connect(state, &SourceState::sizeThresholdChanged, this, [this](std::uint64_t bytes) {
        if (isCurrent())
            showThreshold(bytes);
    });
}

void SizesPage::clear()
{
    m_panel->chart()->setBins({});
    m_panel->chart()->setThreshold(std::nullopt);
    m_control->setRecommended(std::nullopt, {});
    m_control->setCounters(tr("Run an analysis to see how many documents a threshold catches."));
}

void SizesPage::showProgress(const AnalysisProgress &progress)
{
    m_panel->chart()->setBins(progress.scan.sizesSoFar.bins());
}

void SizesPage::showResult(const AnalysisResult &result)
{
    m_panel->chart()->setBins(result.profile.sizes.histogram().bins());
    m_panel->setExportName(result.request.source.collectionName() +
                           QStringLiteral("-document-sizes"));
    if (result.profile.documents == 0) {
        m_panel->chart()->setThreshold(std::nullopt);
        m_control->setCounters(tr("No documents were analysed."));
        return;
    }
    // The analysis's own rule (result() may hold a threshold the user chose).
    const AppliedThreshold &rule = state()->analysis().outliers.size;
    m_control->setRecommended(rule.value, tr("%1: %2").arg(Format::bytes(rule.value), rule.rule));
    showThreshold(state()->sizeThreshold());
    m_panel->chart()->resetView();
}

void SizesPage::showThreshold(std::uint64_t threshold)
{
    const AnalysisResult &result = state()->result();
    m_control->setValue(threshold);
    m_panel->chart()->setThreshold(double(threshold));
    if (result.profile.documents == 0)
        return;
    const ThresholdImpact impact = ThresholdImpact::forSize(result.profile, threshold);
    m_control->setCounters(tr("%1%2 of %3 documents over %4 (%5)")
                               .arg(impact.exact ? QString() : tr("about "),
                                    Format::count(impact.documentsOver),
                                    Format::count(result.profile.documents),
                                    Format::bytes(threshold), Format::percent(impact.share, 2)));
}

} // namespace oe
