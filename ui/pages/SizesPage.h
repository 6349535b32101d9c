#pragma once

#include "jobs/AnalysisProgress.h"
#include "pages/SourcePage.h"

namespace oe {

class ChartPanel;
class ThresholdControl;

// Document sizes: the histogram on a log axis (CDF on demand), the size threshold as a line
// to drag, a number to type and a recommendation, with the documents it catches.
// The threshold is the state's size threshold.
class SizesPage : public SourcePage
{
    Q_OBJECT
public:
    explicit SizesPage(QWidget *parent = nullptr);
    void clear() override;
    void showProgress(const AnalysisProgress &progress);
    void showResult(const AnalysisResult &result) override;
    ChartPanel *panel() const { return m_panel; }
    ThresholdControl *control() const { return m_control; }

protected:
    void bind(SourceState *state) override;

private:
    void showThreshold(std::uint64_t threshold);

    ChartPanel *m_panel;
    ThresholdControl *m_control;
};

} // namespace oe
