#pragma once

#include "stats/CandidateTail.h"
#include "stats/Distribution.h"

#include <cstdint>

namespace oe {

// The shape of whole documents: how many fields each has (in it and its sub-documents; not the
// fields of objects inside arrays, whose lengths the arrays' figures give) and how deep it nests
// (1: scalars only; each object or array inside adds one), with the documents at the top of each.
struct DocumentShape
{
    static constexpr std::uint64_t kDefaultBigScalarBytes = 256 * 1024;

    Distribution fieldCounts;
    Distribution depths;
    CandidateTail mostFields;
    CandidateTail deepest;
    // Strings and binaries (and JavaScript code, symbols) larger than this are big scalars.
    std::uint64_t bigScalarBytes = kDefaultBigScalarBytes;
    // The documents whose every field was walked (fieldCounts' count): the shape figures hold
    // for the profile only when these are all of its documents (not for a server-side
    // measurement, which returns sizes and array lengths only).
    std::uint64_t walkedDocuments() const { return fieldCounts.count(); }

    void absorb(DocumentShape &&other);
};

} // namespace oe
