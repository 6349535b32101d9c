#pragma once

#include "shape/ShapeFlag.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace oe {

// The Schema Versioning pattern seen in a collection (VersionDetector): the version field, each
// version's share of the documents, the schema outliers within each version's documents, and
// how the shares moved across the analysis history (is a lazy migration progressing?).
struct SchemaVersions
{
    enum class Source
    {
        None,     // no version field in effect (`note` says why)
        Detected, // a usual name, in most documents, with few distinct values
        Named     // the one the user named
    };
    struct Share
    {
        std::string raw; // DocumentId's raw form of the value; empty: the documents without one
        QString value;   // the value as relaxed extended JSON ("2", "\"v2\""), or "(none)"
        std::uint64_t documents = 0;
    };
    // One earlier (or this) analysis of the same source: its shares by value.
    struct Point
    {
        QDateTime at;
        std::uint64_t documents = 0;
        std::vector<Share> shares;
    };

    Source source = Source::None;
    std::string field;      // UTF-8; empty when none
    QString note;           // why none, or what the user should know of the named field
    QStringList candidates; // watched fields present in the documents, for a choice
    std::uint64_t documents = 0;
    std::vector<Share> shares;    // by value, the documents without a version last
    std::vector<ShapeFlag> flags; // within each version's documents (ShapeFlag::version set)
    std::vector<Point> history;   // oldest first, this analysis last (when it was kept)

    bool inEffect() const { return source != Source::None; }
    QString label(const Share &share) const
    {
        return QStringLiteral("%1 %2").arg(QString::fromStdString(field), share.value);
    }
    double share(const Share &s) const
    {
        return documents ? double(s.documents) / double(documents) : 0.0;
    }
};

} // namespace oe
