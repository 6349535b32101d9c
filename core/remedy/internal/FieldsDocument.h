#pragma once

// Internal to core: a Fields remedy's view of one document (Remedy::Unit::Fields). Its value is
// the whole document (raw: a sub-document's type byte first), because putting the fields back
// where they stood needs its key order; what the guards and the read-back compare is its
// touched part: the named fields it holds, in the document's order.

#include "bson/internal/BsonRaw.h"

#include <QByteArray>
#include <QStringList>

namespace oe {

class FieldsDocument
{
public:
    // The named top-level fields a document (raw) holds, in its order, as a raw sub-document;
    // any other raw value is returned as it is.
    static QByteArray touched(const QStringList &names, const QByteArray &document);
    // The document a rollback writes (BSON bytes): `original`'s keys in its order, the `moved`
    // fields with its values and every other key with `current`'s value (a key the application
    // removed since stays removed), then the keys the application added since, but the `made`
    // ones. Empty when either is no document.
    static QByteArray restored(const QStringList &moved, const QStringList &made,
                               const QByteArray &original, const QByteArray &current);
    // A raw sub-document value of a document's bytes, and back (empty: not a sub-document).
    static QByteArray rawOfDocument(const QByteArray &bytes);
    static QByteArray documentOfRaw(const QByteArray &raw);
    static bool isDocument(const QByteArray &raw);

    // `visit` with each top-level element of a raw sub-document, in order; false when it is none.
    template <typename Visit> static bool eachField(const QByteArray &raw, Visit visit)
    {
        const QByteArray bytes = documentOfRaw(raw);
        bson_t doc;
        bson_iter_t it;
        if (bytes.isEmpty() || !bsonraw::view(bytes, &doc) || !bson_iter_init(&it, &doc))
            return false;
        while (bson_iter_next(&it))
            visit(&it);
        return true;
    }
};

} // namespace oe
