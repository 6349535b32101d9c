#pragma once

#include "analysis/OutlierReport.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace oe {

// One outlier document with all its reasons (OutlierReport has a row per reason): its size,
// its longest outlier array, and the reasons in words.
struct OutlierDocument
{
    QString id;
    std::uint64_t docIndex = 0;
    std::uint64_t bsonSize = 0;
    QString path; // the longest outlier array; empty when only its size is an outlier
    std::uint64_t arrayLength = 0;
    QStringList reasons;

    // The rows' documents, in the order they first appear.
    static std::vector<OutlierDocument> group(const std::vector<OutlierRow> &rows);
};

} // namespace oe
