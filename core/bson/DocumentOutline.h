#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace oe {

// One field (or array element) of a BSON document, as a document viewer shows it.
struct OutlineEntry
{
    QString key;             // field name, or the element's index in an array
    QString type;            // MongoDB $type alias: "string", "array", "objectId", ...
    QString preview;         // the value in one short line
    qint64 childOffset = -1; // for documents and arrays: where their bytes start, else -1
    qint64 childCount = 0;   // fields or elements of a document or array
    qint64 valueBytes = 0;   // bytes of the value (for containers, the whole sub-document)
    bool isContainer() const { return childOffset >= 0; }
};

// Lazily lists what a BSON document holds, one level at a time, so a viewer expands a 15 MB
// document instantly: only the level being opened is read. Offsets point into the document's
// own buffer, which the caller keeps.
class DocumentOutline
{
public:
    // The fields of the document or array whose bytes start at `offset` (0 = the document),
    // entries [first, first + limit). `total` receives how many there are. Empty with `error`
    // set if the bytes are not a valid BSON document there.
    static std::vector<OutlineEntry> children(const QByteArray &document, qint64 offset,
                                              qint64 first, qint64 limit, qint64 *total,
                                              QString *error);
    // How many fields the document or array at `offset` has (-1 if invalid).
    static qint64 count(const QByteArray &document, qint64 offset);
    // Relaxed extended JSON (libbson), indented two spaces per level.
    static QString toIndentedJson(const QByteArray &document, QString *error);
    static constexpr int kPreviewChars = 120;
};

} // namespace oe
