#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace oe {

// Why a document is big: its bytes by top-level field (each field's whole element: type byte,
// name and value), and where the weight sits below them: from the heaviest field, down
// through the heaviest child for as long as that child holds at least half of its parent's
// bytes ("payload.raw": one 9 MB string; "comments": 10,000 elements, none of them heavy).
// Read one level at a time through DocumentOutline; a value type, any thread.
struct SizeAnatomy
{
    struct Part
    {
        QString key;
        QString type; // MongoDB $type alias
        qint64 bytes = 0;
        qint64 children = 0; // fields or elements of a document or array
    };

    qint64 documentBytes = 0;
    std::vector<Part> fields; // every top-level field, heaviest first (ties by name)
    QString heaviestPath;     // dotted; array elements by index
    Part heaviest;            // the value at heaviestPath
    int heaviestDepth = 0;    // 1 for a top-level field

    // The anatomy of one whole BSON document; empty with `error` set (and the offset named)
    // when the bytes are not one.
    static SizeAnatomy of(const QByteArray &document, QString *error);
    // The heaviest `count` fields, the rest summed into one part named "(N other fields)".
    std::vector<Part> top(std::size_t count) const;
    // Share of the document's bytes in `bytes`, 0..1.
    double share(qint64 bytes) const
    {
        return documentBytes > 0 ? double(bytes) / double(documentBytes) : 0.0;
    }
};

} // namespace oe
