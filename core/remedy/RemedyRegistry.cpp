#include "remedy/RemedyRegistry.h"

#include "remedy/attributes/AttributesRemedy.h"
#include "remedy/convert/ConvertTypeRemedy.h"
#include "remedy/extract/ExtractRemedy.h"
#include "remedy/gridfs/GridFsRemedy.h"
#include "remedy/keys/KeysToArrayRemedy.h"
#include "remedy/rename/RenameRemedy.h"

#include <algorithm>

namespace oe {

const std::vector<const Remedy *> &RemedyRegistry::all()
{
    static const KeysToArrayRemedy keys;
    static const ConvertTypeRemedy convert;
    static const ExtractRemedy extract;
    static const GridFsRemedy gridfs;
    static const AttributesRemedy attributes;
    static const RenameRemedy rename;
    static const std::vector<const Remedy *> remedies{&keys,   &convert,    &extract,
                                                      &gridfs, &attributes, &rename};
    return remedies;
}

const Remedy &RemedyRegistry::of(RewriteKind kind)
{
    for (const Remedy *remedy : all())
        if (remedy->kind() == kind)
            return *remedy;
    return *all().front(); // every kind has its remedy (tst_remedyregistry)
}

const Remedy *RemedyRegistry::named(const QString &name)
{
    const auto &list = all();
    const auto found = std::find_if(list.begin(), list.end(),
                                    [&](const Remedy *remedy) { return remedy->name() == name; });
    return found == list.end() ? nullptr : *found;
}

const Remedy *RemedyRegistry::byCliOption(const QString &option)
{
    const auto &list = all();
    const auto found = std::find_if(list.begin(), list.end(), [&](const Remedy *remedy) {
        return remedy->cliOption() == option;
    });
    return found == list.end() ? nullptr : *found;
}

std::vector<const Remedy *> RemedyRegistry::curing(ShapeFlag::Kind kind)
{
    std::vector<const Remedy *> out;
    for (const Remedy *remedy : all()) {
        const std::vector<ShapeFlag::Kind> cures = remedy->cures();
        if (std::find(cures.begin(), cures.end(), kind) != cures.end())
            out.push_back(remedy);
    }
    return out;
}

} // namespace oe
