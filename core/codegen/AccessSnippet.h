#pragma once

#include "split/SplitConfig.h"

#include <QString>

namespace oe {

// What the application changes after a split, as mongosh code for the chosen names: the read
// path (the document's first `keep` elements, then the pages in order) and the write path
// (append to the document while it has room, else to the last page). Shown by the migration
// wizard's last page; the code generator issue replaces it with tested code per language.
class AccessSnippet
{
public:
    static QString mongosh(const SplitConfig &config);
};

} // namespace oe
