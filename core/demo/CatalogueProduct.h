#pragma once

// Internal to the demo data: one product of the demo's catalogue (the attribute pattern's case,
// issue 39): eight categories, each with fifteen attributes of its own as top-level fields
// (voltage, isbn, fabric, ...), of which a product holds six; each attribute of one type.

#include "stats/SplitMix64.h"

#include <bson/bson.h>

#include <cstdint>

namespace oe::demo {

void catalogueProduct(bson_t *doc, std::uint64_t i, SplitMix64 &rng);

} // namespace oe::demo
