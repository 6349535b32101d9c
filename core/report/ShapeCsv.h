#pragma once

#include "analysis/FieldProfile.h"
#include "shape/ShapeReport.h"

#include <QIODevice>
#include <QString>
#include <QStringList>

namespace oe {

// The shape parts of the CSV reports: shape_outliers.csv (one row per listed flag: kind, path,
// type, share, count, total, detail, example _ids and document numbers, the query that finds
// the documents (ShapeQuery), the schema version it is within, and for a difference between
// versions what explains it), schema_versions.csv (each version's share, its flags and its
// share in each analysis of the history) and fields.csv's type columns.
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
    // A sparse field family's members as a JSON array of names (`fields`); empty for others.
    static QString membersOf(const ShapeFlag &flag);
    static bool versions(const ShapeReport &report, QIODevice *out);
    // "1:900|2:92|3:8": each version's documents (summary.csv).
    static QString shares(const SchemaVersions &versions);
    // "2026-11-20T09:00:00.120Z 0.95|...": a version's share in each analysis of the history.
    static QString history(const SchemaVersions &versions, const SchemaVersions::Share &share);
};

} // namespace oe
