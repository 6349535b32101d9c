#include "remedy/Remedy.h"

#include "remedy/internal/SideStore.h"

namespace oe {

std::optional<RewriteConfig> Remedy::suggest(const ShapeFlag &, const FieldProfile &,
                                             const QString &, qint64 bigScalarBytes) const
{
    if (cures().empty())
        return std::nullopt;
    RewriteConfig config;
    config.kind = kind();
    if (options().testFlag(Option::MinBytes))
        config.minBytes = bigScalarBytes; // the values the flag calls big
    return config;
}

std::unique_ptr<SideStore> Remedy::sideStore(MongoConnection &, const QString &,
                                             const RewriteConfig &) const
{
    return nullptr;
}

} // namespace oe
