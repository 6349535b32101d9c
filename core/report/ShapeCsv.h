#pragma once

#include "analysis/FieldProfile.h"
#include "shape/ShapeReport.h"

#include <QIODevice>
#include <QString>

namespace oe {

// The shape parts of the CSV reports: shape_outliers.csv (one row per flag: kind, path, type,
// share, count, total, detail, example _ids and document numbers) and fields.csv's type
// columns.
class ShapeCsv
{
public:
    static bool outliers(const ShapeReport &report, QIODevice *out);
    // "int:3988|string:12": every type with its count, most first (empty for none).
    static QString typeCounts(const TypeCounts &counts);
    // Example _ids as relaxed extended JSON, separated by spaces ("(none)" for a document
    // without an _id).
    static QString exampleIds(const ShapeFlag &flag);
};

} // namespace oe
