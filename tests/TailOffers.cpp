#include "TailOffers.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <string>

using namespace oe;

namespace fixtures {

TailCandidate candidateFor(const Offer &o)
{
    TailCandidate c;
    c.value = o.value;
    c.docIndex = o.docIndex;
    c.docSize = o.value + 16;
    c.rawId = "\x10id" + std::to_string(o.docIndex);
    c.path = "items";
    return c;
}

// Reference order: larger value first, then smaller docIndex.
bool refBetter(const Offer &a, const Offer &b)
{
    return a.value != b.value ? a.value > b.value : a.docIndex < b.docIndex;
}

// What a tail with this capacity and keepAbove must retain: every nonzero value above
// keepAbove, plus the `capacity` best of the other nonzero values; best first.
Offers expectedRetained(const Offers &offers, std::size_t capacity, std::uint64_t keepAbove)
{
    Offers above;
    Offers rest;
    for (const Offer &o : offers) {
        if (o.value == 0)
            continue;
        (o.value > keepAbove ? above : rest).push_back(o);
    }
    std::sort(rest.begin(), rest.end(), refBetter);
    if (rest.size() > capacity)
        rest.resize(capacity);
    above.insert(above.end(), rest.begin(), rest.end());
    std::sort(above.begin(), above.end(), refBetter);
    return above;
}

// Whether every offered value > t is in `retained` (brute force).
bool expectedCompleteAbove(const Offers &offers, const Offers &retained, std::uint64_t t)
{
    for (const Offer &o : offers) {
        if (o.value <= t)
            continue;
        const bool kept = std::any_of(retained.begin(), retained.end(),
                                      [&o](const Offer &r) { return r.docIndex == o.docIndex; });
        if (!kept)
            return false;
    }
    return true;
}

CandidateTail tailOf(const Offers &offers, std::size_t capacity, std::uint64_t keepAbove)
{
    CandidateTail tail(capacity, keepAbove);
    for (const Offer &o : offers)
        tail.offer(candidateFor(o));
    return tail;
}

// Compares a tail's sorted() (or above()) list with the expected offers, including the
// payload fields, which must travel with their candidate.
void compareList(const std::vector<TailCandidate> &actual, const Offers &expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(actual[i].value, expected[i].value);
        QCOMPARE(actual[i].docIndex, expected[i].docIndex);
        QCOMPARE(actual[i].docSize, expected[i].value + 16);
        QCOMPARE(actual[i].rawId, "\x10id" + std::to_string(expected[i].docIndex));
        QCOMPARE(actual[i].path, std::string("items"));
    }
}

// Thresholds worth probing: 0, every distinct value, one below and one above each, the max.
std::vector<std::uint64_t> probeThresholds(const Offers &offers)
{
    std::vector<std::uint64_t> t{0, CandidateTail::kNoThreshold};
    for (const Offer &o : offers) {
        t.push_back(o.value);
        t.push_back(o.value + 1);
        if (o.value > 0)
            t.push_back(o.value - 1);
    }
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    return t;
}

// Named streams of offers, docIndex = scan position.
Offers makeOffers(const QString &kind)
{
    std::mt19937_64 rng(kind.size() * 7919 + 17);
    Offers o;
    const auto push = [&o](std::uint64_t v) { o.push_back({v, std::uint64_t(o.size())}); };
    if (kind == QLatin1String("random distinct")) {
        std::vector<std::uint64_t> v(3000);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = 1 + i * 37;
        std::shuffle(v.begin(), v.end(), rng);
        for (auto x : v)
            push(x);
    } else if (kind == QLatin1String("random wide")) {
        for (int i = 0; i < 5000; ++i)
            push(rng() >> (rng() % 64));
    } else if (kind == QLatin1String("many ties")) {
        for (int i = 0; i < 4000; ++i)
            push(1 + rng() % 6);
    } else if (kind == QLatin1String("with zeros")) {
        for (int i = 0; i < 3000; ++i)
            push(rng() % 3 == 0 ? 0 : rng() % 500);
    } else if (kind == QLatin1String("ascending")) {
        for (int i = 0; i < 2000; ++i)
            push(std::uint64_t(i / 3));
    } else if (kind == QLatin1String("descending")) {
        for (int i = 2000; i > 0; --i)
            push(std::uint64_t(i / 3));
    } else if (kind == QLatin1String("all zeros")) {
        for (int i = 0; i < 100; ++i)
            push(0);
    } else if (kind == QLatin1String("doc sizes")) {
        std::lognormal_distribution<double> sizes(9.0, 1.5);
        for (int i = 0; i < 20000; ++i)
            push(std::uint64_t(std::clamp(sizes(rng), 100.0, 16.0 * 1024 * 1024)));
    } else {
        qFatal("unknown offers");
    }
    return o;
}

const char *const kKinds[8] = {"random distinct", "random wide", "many ties", "with zeros",
                               "ascending",       "descending",  "all zeros", "doc sizes"};

} // namespace fixtures
