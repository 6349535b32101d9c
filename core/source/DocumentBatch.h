#pragma once

#include "bson/ByteBuffer.h"

#include <cstdint>
#include <vector>

namespace oe {

// A run of whole BSON documents in one buffer, handed from a source to analysis workers.
struct DocumentBatch
{
    struct Entry
    {
        std::uint32_t offset;       // into bytes
        std::uint32_t length;       // BSON length
        std::uint64_t index;        // 0-based position in the source
        std::uint64_t sourceOffset; // byte offset in the source (file)
    };

    ByteBuffer bytes;
    std::vector<Entry> documents;

    const std::uint8_t *data(const Entry &e) const { return bytes.data() + e.offset; }
    void clear()
    {
        bytes.clear();
        documents.clear();
    }
};

} // namespace oe
