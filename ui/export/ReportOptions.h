#pragma once

#include "split/SplitConfig.h"

#include <QString>

#include <optional>

namespace oe {

// What the shareable report shows besides the analysis: the layout chosen for the split and,
// after a migration, its log and the verification's verdict.
struct ReportOptions
{
    enum class PageSize
    {
        A4,
        Letter
    };
    PageSize pageSize = PageSize::A4;
    int topK = 20; // rows of the outlier table
    std::optional<SplitConfig> layout;
    QString migrationLog;
    QString verification;
};

} // namespace oe
