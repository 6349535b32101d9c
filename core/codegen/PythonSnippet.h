#pragma once

#include "split/SplitConfig.h"

#include <QString>

namespace oe {

// The outlier pattern's write and read paths for Python and PyMongo:
// append_<field>(db, doc_id, item), read_<field>(db, doc_id, start, count),
// read_all_<field>(db, doc_id).
class PythonSnippet
{
public:
    static QString generate(const SplitConfig &config);
};

} // namespace oe
