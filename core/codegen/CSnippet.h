#pragma once

#include "split/SplitConfig.h"

#include <QString>

namespace oe {

// The outlier pattern's write and read paths for C and libmongoc: append_<field>,
// read_<field> (into a BSON array) and read_all_<field>.
class CSnippet
{
public:
    static QString generate(const SplitConfig &config);
};

} // namespace oe
