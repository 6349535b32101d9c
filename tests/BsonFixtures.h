#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <cstdint>

// Test fixtures: BSON built with libbson from extended JSON, written as dump files.
namespace fixtures {

// Canonical or relaxed extended JSON -> BSON bytes (aborts the test run on bad JSON).
QByteArray bson(const char *json);
QByteArray concat(const QList<QByteArray> &documents);
bool writeFile(const QString &path, const QByteArray &bytes);
bool writeGzip(const QString &path, const QByteArray &bytes);
// A document {_id: id, pad: "<n bytes>"} of exactly `size` bytes (size >= 32).
QByteArray documentOfSize(int id, int size);
// Extended JSON of a document with one field of most types, nested documents and arrays.
extern const char *const kMixedTypes;
// {_id: id, items: [0, 1, ..., length-1]}
QByteArray documentWithArray(int id, int length, const char *field = "items");

// Independent reference reading of a dump: every document's _id (relaxed JSON), size and
// longest top-level array, computed with plain libbson, not the code under test.
struct ReferenceDocument
{
    QString id;
    std::uint32_t size = 0;
    QString longestArrayPath;
    std::uint32_t longestArrayLength = 0;
};
QList<ReferenceDocument> readReference(const QString &path);
// The bytes of the elements past the first `keep` of the top-level array `field` in every
// document of the dump at `path` (each element as it is in the array: type, key and value),
// by plain libbson: what a split keeping `keep` moves.
std::uint64_t bytesBeyond(const QString &path, const QString &field, std::uint64_t keep);
// The dump's document at 0-based `index` as relaxed extended JSON (empty if there is none).
QByteArray documentJsonAt(const QString &path, qsizetype index);
// A document's bytes as relaxed extended JSON (empty if they are not one).
QByteArray jsonOf(const QByteArray &bson);

} // namespace fixtures
