#pragma once

// Internal to core: the attribute rewrite's view of one document. The rewrite's value is the
// whole document (raw, a sub-document's type byte first), because putting the fields back where
// they stood needs its key order; what the guards and the read-back compare is its touched part:
// the chosen fields it holds and the array, in the document's order.

#include "remedy/RewriteConfig.h"
#include "remedy/ValueRewriter.h"

#include <QByteArray>

namespace oe {

class AttributeDocument
{
public:
    // The array of {k, v} the chosen fields make, as a one-field document {<path>: [...]}
    // (raw); Unchanged when the document holds none of them, Cannot when it holds the array's
    // name already.
    static RewriteResult rewrite(const RewriteConfig &config, const QByteArray &document);
    // The chosen fields and the array a document (raw) holds, in its order, as a raw
    // sub-document; any other raw value is returned as it is.
    static QByteArray touched(const RewriteConfig &config, const QByteArray &document);
    // The document the rollback writes (BSON bytes): `original`'s keys in its order, the chosen
    // fields with its values and every other key with `current`'s value (a key the application
    // removed since stays removed), then the keys the application added since, without the
    // array. Empty when `current` is no document.
    static QByteArray restored(const RewriteConfig &config, const QByteArray &original,
                               const QByteArray &current);
    // A raw sub-document value of a document's bytes, and back.
    static QByteArray rawOfDocument(const QByteArray &bytes);
    static QByteArray documentOfRaw(const QByteArray &raw);
};

} // namespace oe
