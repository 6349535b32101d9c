#include "analysis/internal/VersionWatch.h"

#include "bson/DocumentId.h"
#include "bson/internal/BsonIter.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace oe {

namespace {

// A number's raw form, integral values as int32 (or int64) whatever their type: the server
// compares numbers by value, so {v: 2} finds 2, 2.0 and NumberLong(2) alike, and so do we.
std::string numberRaw(double value)
{
    if (value >= -2147483648.0 && value <= 2147483647.0) {
        const std::int32_t v = std::int32_t(value);
        std::uint8_t bytes[4];
        const std::uint32_t le = BSON_UINT32_TO_LE(std::uint32_t(v));
        std::memcpy(bytes, &le, 4);
        return DocumentId::raw(BSON_TYPE_INT32, bytes, 4);
    }
    const std::int64_t v = std::int64_t(value);
    std::uint8_t bytes[8];
    const std::uint64_t le = BSON_UINT64_TO_LE(std::uint64_t(v));
    std::memcpy(bytes, &le, 8);
    return DocumentId::raw(BSON_TYPE_INT64, bytes, 8);
}

// The value as a version, in DocumentId's raw form; empty when no version has it.
std::string versionRaw(const bson_iter_t *iter)
{
    const bson_type_t type = bson_iter_type(iter);
    const std::uint8_t *value = bsoniter::container(iter) + bsoniter::valueOffset(iter);
    const std::size_t length = bsoniter::valueLength(iter);
    switch (type) {
    case BSON_TYPE_INT32:
        return DocumentId::raw(type, value, length);
    case BSON_TYPE_INT64: {
        const std::int64_t v = bson_iter_int64(iter);
        if (v >= INT32_MIN && v <= INT32_MAX)
            return numberRaw(double(v));
        return DocumentId::raw(type, value, length);
    }
    case BSON_TYPE_DOUBLE: {
        const double v = bson_iter_double(iter);
        if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
            return numberRaw(v);
        return DocumentId::raw(type, value, length);
    }
    case BSON_TYPE_DECIMAL128:
        return DocumentId::raw(type, value, length);
    case BSON_TYPE_UTF8:
        if (length <= 4 + VersionTally::kMaxStringBytes + 1)
            return DocumentId::raw(type, value, length);
        return {};
    default:
        return {};
    }
}

} // namespace

VersionWatch::VersionWatch(const std::vector<std::string> &names)
{
    for (const std::string &name : names) {
        if (name.empty() || m_watched.size() == kMaxNames ||
            std::any_of(m_watched.begin(), m_watched.end(),
                        [&](const Watched &w) { return w.name == name; }))
            continue;
        m_watched.emplace_back();
        m_watched.back().name = name;
        m_lengths |= name.size() < 64 ? std::uint64_t(1) << name.size() : 0;
    }
}

void VersionWatch::begin(const bson_iter_t *start, std::uint64_t weight, bool examples)
{
    m_activeCount = 0;
    m_weight = weight;
    m_examples = examples;
    if (m_watched.empty())
        return;
    for (Watched &w : m_watched)
        w.watched += weight;
    bson_iter_t iter = *start;
    std::uint64_t seen = 0; // a field repeated at the top level: its first value
    while (bson_iter_next(&iter)) {
        const std::string_view key = bsoniter::key(&iter);
        if (key.size() >= 64 || !((m_lengths >> key.size()) & 1))
            continue;
        for (std::size_t i = 0; i < m_watched.size(); ++i) {
            Watched &w = m_watched[i];
            if (w.name != key || (seen >> i) & 1)
                continue;
            seen |= std::uint64_t(1) << i;
            w.present += weight;
            const int group = groupOf(w, &iter);
            if (group >= 0)
                m_active[std::size_t(m_activeCount++)] = group;
        }
    }
}

int VersionWatch::groupOf(Watched &w, const bson_iter_t *iter)
{
    std::string raw = versionRaw(iter);
    if (raw.empty()) {
        w.unfit += m_weight;
        return -1;
    }
    if (w.tooManyValues)
        return -1;
    for (const auto &[value, group] : w.values)
        if (value == raw)
            return group;
    if (w.values.size() == VersionTally::kMaxValues) {
        w.tooManyValues = true; // a counter, not a version: what it counted is dropped in take()
        return -1;
    }
    const int group = int(m_groups.size());
    m_groups.emplace_back();
    m_groupField.push_back(int(&w - m_watched.data()));
    w.values.emplace_back(std::move(raw), group);
    return group;
}

VersionNodeCounts &VersionWatch::countsAt(FieldNode *node, int group)
{
    for (VersionNodeCounts &c : node->versionCounts)
        if (c.group == group)
            return c;
    if (node->versionCounts.empty())
        m_nodes.push_back(node);
    node->versionCounts.push_back({});
    node->versionCounts.back().group = group;
    return node->versionCounts.back();
}

void VersionWatch::finish(std::uint64_t fields, std::uint64_t depth, std::uint64_t weight)
{
    if (m_watched.empty() || weight == 0) {
        m_activeCount = 0;
        return;
    }
    std::uint64_t grouped = 0; // bit i: m_watched[i] gave this document a version
    for (int i = 0; i < m_activeCount; ++i) {
        const std::size_t g = std::size_t(m_active[std::size_t(i)]);
        GroupCounts &counts = m_groups[g];
        counts.documents += weight;
        counts.fieldCounts.add(fields, weight);
        counts.depths.add(depth, weight);
        grouped |= std::uint64_t(1) << m_groupField[g];
    }
    m_rest.resize(m_watched.size());
    for (std::size_t i = 0; i < m_watched.size(); ++i) {
        if ((grouped >> i) & 1)
            continue;
        m_rest[i].fieldCounts.add(fields, weight);
        m_rest[i].depths.add(depth, weight);
    }
    m_activeCount = 0;
}

VersionTally VersionWatch::take()
{
    VersionTally tally;
    std::vector<std::vector<VersionTally::Path>> paths(m_groups.size());
    m_rest.resize(m_watched.size());
    for (FieldNode *node : m_nodes) {
        for (VersionNodeCounts &c : node->versionCounts) {
            VersionTally::Path p = std::move(c.counts);
            p.path = node->path();
            std::stable_sort(p.examples.begin(), p.examples.end(),
                             [](const ShapeExample &a, const ShapeExample &b) {
                                 return a.slot != b.slot ? a.slot < b.slot
                                                         : a.docIndex < b.docIndex;
                             });
            paths[std::size_t(c.group)].push_back(std::move(p));
        }
        node->versionCounts.clear();
    }
    m_nodes.clear();
    for (Watched &w : m_watched) {
        RestCounts &rest = m_rest[std::size_t(&w - m_watched.data())];
        VersionTally::Field f;
        f.restFieldCounts = std::move(rest.fieldCounts);
        f.restDepths = std::move(rest.depths);
        rest = RestCounts();
        f.name = w.name;
        f.watched = w.watched;
        f.present = w.present;
        f.unfit = w.unfit;
        f.tooManyValues = w.tooManyValues;
        if (!w.tooManyValues) {
            for (auto &[raw, group] : w.values) {
                VersionTally::Group g;
                g.raw = raw;
                GroupCounts &counts = m_groups[std::size_t(group)];
                g.documents = counts.documents;
                g.fieldCounts = std::move(counts.fieldCounts);
                g.depths = std::move(counts.depths);
                g.paths = std::move(paths[std::size_t(group)]);
                std::sort(g.paths.begin(), g.paths.end(),
                          [](const VersionTally::Path &a, const VersionTally::Path &b) {
                              return a.path < b.path;
                          });
                f.groups.push_back(std::move(g));
            }
            std::sort(f.groups.begin(), f.groups.end(),
                      [](const VersionTally::Group &a, const VersionTally::Group &b) {
                          return a.raw < b.raw;
                      });
        }
        tally.fields.push_back(std::move(f));
        w.watched = w.present = w.unfit = 0;
        w.tooManyValues = false;
        w.values.clear();
    }
    std::sort(
        tally.fields.begin(), tally.fields.end(),
        [](const VersionTally::Field &a, const VersionTally::Field &b) { return a.name < b.name; });
    m_groups.clear();
    m_groupField.clear();
    return tally;
}

} // namespace oe
