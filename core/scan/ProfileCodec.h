#pragma once

#include "analysis/CollectionProfile.h"

#include <QByteArray>

#include <optional>

namespace oe {

// A CollectionProfile's counts, distributions, fields and candidate tails as bytes and back,
// exactly: a resumed scan continues from the decoded profile and ends with the same figures as
// one that never stopped. Source, mode, status and timing are not kept.
class ProfileCodec
{
public:
    static QByteArray encode(const CollectionProfile &profile);
    // nullopt when the bytes are not a profile this version wrote.
    static std::optional<CollectionProfile> decode(const QByteArray &bytes);

private:
    struct Writer;
    struct Reader;
};

} // namespace oe
