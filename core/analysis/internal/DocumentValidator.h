#pragma once

#include "source/SourceError.h"

#include <cstdint>
#include <memory>

namespace oe {

class ProfileBuilder;

// The validation `analyze` applies to every document (each element's type and length, nested
// documents and arrays, nesting depth), for code that reads or writes documents without
// analysing them: the offline split, verify and rollback. A document it refuses is reported
// the way analyze reports it: source, document index, byte offset in the file, field path.
class DocumentValidator
{
public:
    DocumentValidator();
    ~DocumentValidator();
    DocumentValidator(const DocumentValidator &) = delete;
    DocumentValidator &operator=(const DocumentValidator &) = delete;

    // `fileOffset` is where the document starts in `source` (-1 when it has no place there,
    // like a document about to be written).
    bool check(const std::uint8_t *data, std::uint32_t length, const QString &source,
               std::int64_t docIndex, std::int64_t fileOffset, SourceError *error);

private:
    std::unique_ptr<ProfileBuilder> m_walker; // analyze's own walk; its statistics are unused
};

} // namespace oe
