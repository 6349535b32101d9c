#pragma once

#include "AnalysisProgress.h"
#include "AnalysisResult.h"

#include <QWidget>

namespace oe {

class ChartPanel;
class ThresholdControl;

// Document sizes: the histogram on a log axis (CDF on demand), the size threshold as a line
// to drag, a number to type and a recommendation, with the documents it catches.
class SizesPage : public QWidget
{
    Q_OBJECT
public:
    explicit SizesPage(QWidget *parent = nullptr);
    void clear();
    void showProgress(const AnalysisProgress &progress);
    void setResult(const AnalysisResult &result);
    ChartPanel *panel() const { return m_panel; }
    ThresholdControl *control() const { return m_control; }

signals:
    void thresholdChanged(std::uint64_t bytes);

private:
    void apply(std::uint64_t threshold);

    ChartPanel *m_panel;
    ThresholdControl *m_control;
    AnalysisResult m_result;
    bool m_hasResult = false;
};

} // namespace oe
