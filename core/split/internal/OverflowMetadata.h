#pragma once

#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

namespace oe {

// The offline split's <overflow>.metadata.json, as mongodump writes one beside a collection's
// .bson: mongorestore creates the indexes it lists, here the unique index on {link: 1, page: 1}
// that the split's pages rely on (a resumed or repeated write never adds a page twice).
class OverflowMetadata
{
public:
    static QString fileName(const SplitConfig &config);
    // Canonical extended JSON built by libbson: the key's field order is kept (an index on
    // {link, page} is not one on {page, link}) and every name is escaped by the library.
    static QByteArray json(const SplitConfig &config);
};

} // namespace oe
