#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <cstdint>
#include <map>

// Ground truth for live tests: what a collection's documents hold, computed by the test from
// their raw bytes (fixtures::readCollection) with plain libbson, never by the code under test,
// so that a report's figures are compared with figures the test knows.
namespace fixtures {

// One top-level field over every document: what fields.csv states for the path of its name.
struct FieldTruth
{
    std::uint64_t present = 0;   // documents that hold it
    std::uint64_t arrays = 0;    // documents that hold it as an array
    std::uint64_t minLength = 0; // the shortest of those arrays
    std::uint64_t maxLength = 0; // the longest
    std::uint64_t bytes = 0;     // its BSON elements: type byte, key and value
};

// One document: its BSON size and the length of each of its top-level arrays.
struct DocumentTruth
{
    std::uint64_t size = 0;
    std::map<QString, std::uint64_t> arrayLengths; // by field name
};

struct CollectionTruth
{
    QList<DocumentTruth> documents;
    std::map<QString, FieldTruth> fields; // the top-level fields, by name

    std::uint64_t minSize() const;
    std::uint64_t maxSize() const;
    std::uint64_t totalSize() const;
    // The sizes larger than `threshold`, largest first.
    QList<std::uint64_t> sizesAbove(std::uint64_t threshold) const;
    // The documents with a top-level array longer than the threshold of its field
    // (`thresholds`, by field name; a field without one flags nothing).
    std::uint64_t documentsWithArrayAbove(const std::map<QString, std::uint64_t> &thresholds) const;
};

// Every document's figures (documents that hold each key once, as a server returns them).
CollectionTruth truthOf(const QList<QByteArray> &documents);
// The documents fixtures::readCollection read (by _id), as a list.
QList<QByteArray> documentsOf(const std::map<QByteArray, QByteArray> &byId);
// The length of the longest top-level array of `document`; 0 if it holds none.
std::uint64_t longestTopLevelArray(const QByteArray &document);

} // namespace fixtures
