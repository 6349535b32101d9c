#include "analysis/internal/DocumentValidator.h"

#include "analysis/ProfileBuilder.h"

#include <algorithm>

namespace oe {

namespace {

ProfileBuilder::Limits smallest()
{
    ProfileBuilder::Limits limits;
    limits.largestDocumentsCapacity = 1;
    limits.longestArraysCapacity = 1;
    limits.perPathCapacity = 1;
    return limits;
}

} // namespace

DocumentValidator::DocumentValidator() : m_walker(std::make_unique<ProfileBuilder>(smallest())) {}

DocumentValidator::~DocumentValidator() = default;

bool DocumentValidator::check(const std::uint8_t *data, std::uint32_t length, const QString &source,
                              std::int64_t docIndex, std::int64_t fileOffset, SourceError *error)
{
    SourceError fault;
    if (m_walker->addDocument(data, length, std::uint64_t(std::max<std::int64_t>(docIndex, 0)),
                              &fault))
        return true;
    fault.source = source;
    fault.docIndex = docIndex;
    if (fileOffset >= 0) {
        fault.byteOffset += fileOffset;
    } else {
        fault.message += QStringLiteral(" (at byte %1 of the document)").arg(fault.byteOffset);
        fault.byteOffset = -1;
    }
    *error = fault;
    return false;
}

} // namespace oe
