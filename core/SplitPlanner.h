#pragma once

#include "DocumentSource.h"
#include "SplitConfig.h"
#include "SplitPlan.h"

#include <QByteArray>

#include <atomic>
#include <functional>

namespace oe {

// Pure core, no writes: what the split would do, for one document or a whole collection.
class SplitPlanner
{
public:
    using RowCallback = std::function<void(const PlanRow &)>;
    using Progress = std::function<void(const SplitPlan &)>;

    // Scans `source` (opened here). `config` must be valid (SplitConfig::problems() empty).
    static SplitPlan plan(DocumentSource &source, const SplitConfig &config,
                          const std::atomic<bool> *cancel = nullptr, const RowCallback &onRow = {},
                          const Progress &progress = {});
    static DocumentPreview preview(const QByteArray &document, const SplitConfig &config);

    static constexpr int kProblemsKept = 20;
};

} // namespace oe
