#pragma once

#include "split/SplitConfig.h"

#include <QString>

namespace oe {

// The outlier pattern's write and read paths for Go and the official driver
// (go.mongodb.org/mongo-driver/v2): Append<Field>, Read<Field>, ReadAll<Field>.
class GoSnippet
{
public:
    static QString generate(const SplitConfig &config);
};

} // namespace oe
