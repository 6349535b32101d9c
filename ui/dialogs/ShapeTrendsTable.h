#pragma once

#include "history/HistoryRun.h"

#include <QTableWidget>

#include <map>
#include <vector>

namespace oe {

// Trends' schema outliers of shape, run by run: one row per flag any of the runs raised (kind,
// path, type), one column per run (the latest kMaxRuns, oldest first) holding "count of total"
// (the share in the tooltip), so a type mix or a key count is seen drifting; "–" where a run
// that measured the shape did not flag it, "not measured" where it did not measure it.
class ShapeTrendsTable : public QTableWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxRuns = 8;
    static constexpr int kFixedColumns = 3; // kind, path, type
    explicit ShapeTrendsTable(QWidget *parent = nullptr);
    void show(const std::vector<HistoryRun> &runs,
              const std::map<qint64, std::vector<HistoryShapeFlag>> &flags);
    // "6 of 1,500"
    static QString figure(const HistoryShapeFlag &flag);
};

} // namespace oe
