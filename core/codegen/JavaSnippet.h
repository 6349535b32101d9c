#pragma once

#include "split/SplitConfig.h"

#include <QString>

namespace oe {

// The outlier pattern's write and read paths for Java and the official sync driver: a class
// <Field>Access with append, read and readAll.
class JavaSnippet
{
public:
    static QString generate(const SplitConfig &config);
};

} // namespace oe
