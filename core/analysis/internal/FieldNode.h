#pragma once

#include "CandidateTail.h"
#include "Distribution.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace oe {

// One node of the field-path trie the ProfileBuilder fills while walking documents. Internal
// to the builder: results leave as FieldProfile values.
struct FieldNode
{
    std::string name;
    FieldNode *parent = nullptr;
    std::vector<std::unique_ptr<FieldNode>> children;
    std::unique_ptr<std::unordered_map<std::string_view, FieldNode *>> index; // many children
    std::size_t hint = 0; // where the last lookup hit: documents repeat their field order

    std::uint32_t typeMask = 0;
    std::uint32_t elementTypeMask = 0;
    std::uint64_t presentDocuments = 0;
    std::uint64_t values = 0;
    std::uint64_t bytes = 0;
    std::uint64_t arrays = 0;
    std::uint64_t elementCount = 0;
    std::uint64_t elementBytes = 0;
    std::unique_ptr<Distribution> lengths; // only for paths that hold arrays
    std::unique_ptr<CandidateTail> tail;   // documents by their longest array here

    // Per-document bookkeeping (sequence numbers of the builder's current document).
    std::uint64_t lastDocument = 0;
    std::uint64_t maxLengthDocument = 0;
    std::uint64_t maxLengthInDocument = 0;

    std::string pathCache;

    FieldNode *child(std::string_view key, std::size_t maxChildren);
    const std::string &path();
    bool insideArray() const;
    int depth() const;
};

} // namespace oe
