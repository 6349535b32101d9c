#pragma once

#include "GroundTruth.h"

#include <QString>

namespace fixtures {

// What the reports analyze wrote in `dir` (summary.csv, fields.csv, outliers.csv) state
// otherwise than `truth`, the test's own reading of the documents the scan covered ("DIR:
// figure: reported N, computed M; ..."); empty if every figure compared is the same.
QString reportDifferences(const QString &dir, const CollectionTruth &truth);

} // namespace fixtures
