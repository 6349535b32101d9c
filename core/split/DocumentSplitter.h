#pragma once

#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace oe {

// The outlier-pattern split of one document, as pure BSON in and out (no server): the primary
// keeps elements [0, keep) and gets the flag (and count/pages fields if configured; existing
// ones are replaced in place, others appended); page k holds elements [keep + kP, keep + (k+1)P).
// Every other field is copied byte for byte, in order.
class DocumentSplitter
{
public:
    struct Result
    {
        enum class Kind
        {
            Unaffected, // no array to move from (the field is missing, short or flagged)
            Split,
            Skipped, // schema drift: the field is not an array here; the document stays as it is
            Invalid  // the document cannot be split at all (malformed, no _id)
        };
        Kind kind = Kind::Unaffected;
        QString problem;           // Skipped, Invalid: why, naming the field
        bool hasField = false;     // the field exists, whatever its type
        bool hasArray = false;     // the field exists and is an array
        bool alreadySplit = false; // the flag field is already true
        std::uint64_t length = 0;  // the array's length
        std::string rawId;         // the _id (DocumentId encoding)
        QByteArray primary;        // Split: the document after
        std::vector<QByteArray> pages;
        std::uint64_t movedElements = 0;
        std::uint64_t movedBytes = 0;
        QByteArray digest; // SHA-256 of the array's elements (type + value, in order)
        // Raw values (BSON type byte + value) the split overwrites, for an exact rollback;
        // empty where the field did not exist.
        QByteArray originalFlag, originalCount, originalPages;
    };

    // `config` must be withDefaults() and valid.
    static Result split(const std::uint8_t *data, std::uint32_t length, const SplitConfig &config);

    // The inverse: the primary with its pages' items appended back in page order, and the
    // flag/count/pages fields restored to `original*` values (removed where those are empty).
    static bool reassemble(const QByteArray &primary, const std::vector<QByteArray> &pagesInOrder,
                           const SplitConfig &config, const QByteArray &originalFlag,
                           const QByteArray &originalCount, const QByteArray &originalPages,
                           QByteArray *out, QString *problem);

    // Elements of the primary's array followed by the pages' items: their number and the digest
    // of the first `prefix` of them (what verify compares with the journal).
    static bool concatenatedDigest(const QByteArray &primary,
                                   const std::vector<QByteArray> &pagesInOrder,
                                   const SplitConfig &config, std::uint64_t prefix,
                                   QByteArray *digest, std::uint64_t *total, QString *problem);

    // The raw value (type byte + bytes) at a dotted path through sub-documents; empty if absent.
    static QByteArray fieldValue(const QByteArray &document, const QString &dottedPath);
    // The number of elements of the array at `dottedPath` and its last element's raw value.
    static bool arrayShape(const QByteArray &document, const QString &dottedPath,
                           std::uint64_t *length, QByteArray *lastElement);

    // Number of pages for an array of `length` elements.
    static std::uint64_t pageCount(std::uint64_t length, const SplitConfig &config);
};

} // namespace oe
