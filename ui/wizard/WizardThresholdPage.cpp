#include "wizard/WizardThresholdPage.h"

#include "charts/Format.h"
#include "widgets/ChartPanel.h"
#include "widgets/ThresholdControl.h"
#include "wizard/MigrationWizard.h"
#include "workspace/KeepFigures.h"
#include "workspace/SourceState.h"

#include <QLabel>
#include <QVBoxLayout>

namespace oe {

WizardThresholdPage::WizardThresholdPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_why(new QLabel(this)),
      m_control(new ThresholdControl(tr("&Keep in the document:"), tr(" elements"), this)),
      m_panel(new ChartPanel(HistogramChart::Unit::Elements, this))
{
    setTitle(tr("Threshold"));
    m_why->setWordWrap(true);
    m_why->setTextFormat(Qt::RichText);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_why);
    layout->addWidget(m_control);
    layout->addWidget(m_panel, 1);
    connect(m_control, &ThresholdControl::valueChanged, this, [this](std::uint64_t v) {
        if (SourceState *state = m_wizard->state())
            state->setKeep(v);
    });
    connect(m_panel->chart(), &HistogramChart::thresholdDragged, this, [this](double v) {
        if (SourceState *state = m_wizard->state())
            state->setKeep(std::uint64_t(v));
    });
    if (SourceState *state = m_wizard->state()) {
        connect(state, &SourceState::keepChanged, this, &WizardThresholdPage::showKeep);
        // The plan's exact figures replace the analysis' estimate (the Arrays tab's words).
        connect(state, &SourceState::planChanged, this, &WizardThresholdPage::showCounters);
    }
}

void WizardThresholdPage::initializePage()
{
    SourceState *state = m_wizard->state();
    if (!state)
        return;
    const AnalysisResult &r = state->analysis();
    const FieldProfile *field = r.profile.field(state->path().toStdString());
    const SplitRecommendation *rec = r.recommendationFor(state->path().toStdString());
    setSubTitle(tr("How many elements of %1 stay in each document.").arg(state->path()));
    if (!field || !rec)
        return;
    m_panel->chart()->setBins(field->lengths.histogram().bins());
    m_panel->chart()->setThresholdDraggable(true);
    m_control->setRecommended(rec->keep, rec->explanation);
    m_why->setText(tr("<b>Recommended: keep %1.</b> %2")
                       .arg(Format::count(rec->keep), rec->explanation.toHtmlEscaped()));
    showKeep();
    m_panel->chart()->resetView();
}

void WizardThresholdPage::showKeep()
{
    SourceState *state = m_wizard->state();
    const FieldProfile *field = state->analysis().profile.field(state->path().toStdString());
    if (!field)
        return;
    const std::uint64_t keep = state->keep();
    m_control->setValue(keep);
    m_panel->chart()->setThreshold(double(keep));
    showCounters();
}

void WizardThresholdPage::showCounters()
{
    if (SourceState *state = m_wizard->state())
        m_control->setCounters(KeepFigures::counters(*state));
}

} // namespace oe
