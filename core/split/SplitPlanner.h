#pragma once

#include "source/DocumentSource.h"
#include "split/SplitConfig.h"
#include "split/SplitPlan.h"

#include <QByteArray>

#include <atomic>
#include <functional>

namespace oe {

class DocumentValidator;
class DuplicateIds;

// Pure core, no writes: what the split would do, for one document or a whole collection.
class SplitPlanner
{
public:
    using RowCallback = std::function<void(const PlanRow &)>;
    using Progress = std::function<void(const SplitPlan &)>;

    // Scans `source` (opened here). `config` must be valid (SplitConfig::problems() empty).
    // Every document read, and every one the split would write, is validated as analyze
    // validates; the first corrupt one stops the plan with `error` naming it. Where the source
    // does not guarantee unique _ids (a dump), a repeated one is an error too.
    static SplitPlan plan(DocumentSource &source, const SplitConfig &config,
                          const std::atomic<bool> *cancel = nullptr, const RowCallback &onRow = {},
                          const Progress &progress = {});
    static DocumentPreview preview(const QByteArray &document, const SplitConfig &config);

    static constexpr int kProblemsKept = 20;

private:
    // Adds one document; false (plan.error set) when it, or what the split makes of it, is
    // corrupt.
    static bool addDocument(SplitPlan &plan, DocumentValidator &validator, DuplicateIds *ids,
                            const QString &source, const DocumentBatch &batch,
                            const DocumentBatch::Entry &entry, const SplitConfig &config,
                            const RowCallback &onRow);
};

} // namespace oe
