#pragma once

// Streams of offers to a CandidateTail and what an exact sort says it must keep: the unit tests
// of CandidateTail and of TailFence (tst_candidatetail, tst_tailfence) hold tails to them.

#include "stats/CandidateTail.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace fixtures {

struct Offer
{
    std::uint64_t value;
    std::uint64_t docIndex;
};
using Offers = std::vector<Offer>;

oe::TailCandidate candidateFor(const Offer &o);
// Reference order: larger value first, then smaller docIndex.
bool refBetter(const Offer &a, const Offer &b);
// What a tail with this capacity and keepAbove must retain: every nonzero value above
// keepAbove, plus the `capacity` best of the other nonzero values; best first.
Offers expectedRetained(const Offers &offers, std::size_t capacity, std::uint64_t keepAbove);
// Whether every offered value > t is in `retained` (brute force).
bool expectedCompleteAbove(const Offers &offers, const Offers &retained, std::uint64_t t);
oe::CandidateTail tailOf(const Offers &offers, std::size_t capacity, std::uint64_t keepAbove);
// QCOMPAREs `actual` with `expected`, element by element (call from a test function).
void compareList(const std::vector<oe::TailCandidate> &actual, const Offers &expected);
// Thresholds worth probing: 0, every distinct value, one below and one above each, the max.
std::vector<std::uint64_t> probeThresholds(const Offers &offers);
// Named streams of offers (kKinds), docIndex = scan position.
Offers makeOffers(const QString &kind);
extern const char *const kKinds[8];

} // namespace fixtures
