#pragma once

#include "analysis/FieldProfile.h"
#include "shape/ShapeReport.h"

#include <QIODevice>
#include <QString>
#include <QStringList>

namespace oe {

// The shape parts of the CSV reports: shape_outliers.csv (one row per flag: kind, path, type,
// share, count, total, detail, example _ids and document numbers, and the query that finds
// the documents: ShapeQuery) and fields.csv's type columns.
class ShapeCsv
{
public:
    static bool outliers(const ShapeReport &report, QIODevice *out);
    // shape_outliers.csv's columns, and one flag's row as text: the HTML report and the
    // window's Shape tab show these very strings.
    static QStringList header();
    static QStringList row(const ShapeFlag &flag);
    // "int:3988|string:12": every type with its count, most first (empty for none).
    static QString typeCounts(const TypeCounts &counts);
    // Example _ids as relaxed extended JSON, separated by spaces ("(none)" for a document
    // without an _id).
    static QString exampleIds(const ShapeFlag &flag);
};

} // namespace oe
