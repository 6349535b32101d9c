#include "CollectionProfile.h"

#include <algorithm>

namespace oe {

const FieldProfile *CollectionProfile::field(const std::string &path) const
{
    auto it =
        std::lower_bound(fields.begin(), fields.end(), path,
                         [](const FieldProfile &f, const std::string &p) { return f.path < p; });
    return it != fields.end() && it->path == path ? &*it : nullptr;
}

} // namespace oe
