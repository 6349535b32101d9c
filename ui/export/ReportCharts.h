#pragma once

#include "explore/AnalysisResult.h"
#include "export/ReportChart.h"

#include <vector>

namespace oe {

// The report's charts, drawn by the app's own HistogramChart (QCustomPlot) off screen: the
// document sizes with the size threshold, and each splittable array's lengths with its keep.
// GUI thread only (QCustomPlot is a widget).
class ReportCharts
{
public:
    static std::vector<ReportChart> render(const AnalysisResult &result,
                                           std::optional<std::uint64_t> chosenKeep = {},
                                           const QString &chosenPath = {});
};

} // namespace oe
