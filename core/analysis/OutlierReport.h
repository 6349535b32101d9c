#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace oe {

// One outlier document for one reason.
struct OutlierRow
{
    QString id;                 // relaxed extended JSON
    std::string rawId;          // the same _id in DocumentId's compact form
    std::uint64_t docIndex = 0; // position in the scan
    std::uint64_t bsonSize = 0;
    QString path; // empty for size reasons
    std::uint64_t arrayLength = 0;
    QString reason; // size_absolute, size_iqr, array_percentile, size_over_half_limit, ...
    QString detail; // the rule in words
};

struct AppliedThreshold
{
    std::uint64_t value = 0; // values strictly above are outliers
    QString rule;
};

struct OutlierReport
{
    AppliedThreshold size;
    bool arrayThresholdIsGlobal = false;
    AppliedThreshold array;                               // when global
    std::map<std::string, AppliedThreshold> arrayPerPath; // when per path (statistical)
    std::vector<OutlierRow> rows;       // size reasons first (largest first), then array reasons
    std::uint64_t outlierDocuments = 0; // distinct documents in rows
    std::uint64_t sizeOutliers = 0;
    std::uint64_t arrayOutliers = 0;
    QStringList warnings; // e.g. a list truncated because it exceeded the retained candidates
};

} // namespace oe
