#pragma once

#include "split/SplitConfig.h"

#include <QString>

namespace oe {

// The outlier pattern's write and read paths for Node.js and the official `mongodb` driver:
// append{{Name}}(db, id, item), read{{Name}}(db, id, from, count), readAll{{Name}}(db, id).
class JsSnippet
{
public:
    static QString generate(const SplitConfig &config);
};

} // namespace oe
