#include "analysis/internal/FieldNode.h"

#include "bson/BsonTypes.h"

namespace oe {

namespace {
constexpr std::size_t kLinearLookupLimit = 24;
} // namespace

FieldNode *FieldNode::lookUp(std::string_view key, std::size_t maxChildren)
{
    const std::size_t n = children.size();
    if (!index) {
        // From the hint on: a document that lacks an optional field goes on with the next.
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = hint + k < n ? hint + k : hint + k - n;
            if (sameKey(children[i]->name, key)) {
                hint = i + 1 < n ? i + 1 : 0;
                return children[i].get();
            }
        }
    } else {
        auto it = index->find(key);
        if (it != index->end())
            return it->second;
    }
    // Children beyond the limit (documents used as maps keyed by user ids, dates, ...) share
    // one node so memory stays bounded; they are counted, not told apart.
    if (n >= maxChildren && key != kOtherKeys) {
        ++shape.keysPastCap;
        return lookUp(kOtherKeys, maxChildren + 1);
    }

    auto node = std::make_unique<FieldNode>();
    node->name.assign(key);
    node->parent = this;
    FieldNode *raw = node.get();
    children.push_back(std::move(node));
    if (index) {
        index->emplace(raw->name, raw);
    } else if (children.size() > kLinearLookupLimit) {
        index = std::make_unique<std::unordered_map<std::string_view, FieldNode *>>();
        for (auto &c : children)
            index->emplace(c->name, c.get());
    }
    return raw;
}

void FieldNode::flushKeys()
{
    shape.keyCounts.add(keysRunValue, keysRun);
    keysRun = 0;
    for (auto &c : children)
        c->flushKeys();
}

// Both trees' key runs are flushed first (flushKeys).
void FieldNode::absorb(FieldNode &from, std::size_t maxChildren)
{
    FieldNode &into = *this;
    into.typeMask |= from.typeMask;
    into.elementTypeMask |= from.elementTypeMask;
    into.presentDocuments += from.presentDocuments;
    into.values += from.values;
    into.bytes += from.bytes;
    into.arrays += from.arrays;
    into.elementCount += from.elementCount;
    into.elementBytes += from.elementBytes;
    into.shape.absorb(std::move(from.shape));
    if (from.lengths) {
        if (!into.lengths)
            into.lengths = std::make_unique<Distribution>();
        into.lengths->merge(*from.lengths);
    }
    if (from.tail) {
        if (!into.tail)
            into.tail = std::move(from.tail);
        else
            into.tail->merge(std::move(*from.tail));
    }
    for (auto &child : from.children)
        into.child(child->name, maxChildren + 1)->absorb(*child, maxChildren);
}

const std::string &FieldNode::path()
{
    if (pathCache.empty() && parent) {
        const std::string &parentPath = parent->path();
        pathCache = parentPath.empty() ? name : parentPath + '.' + name;
    }
    return pathCache;
}

bool FieldNode::insideArray() const
{
    for (const FieldNode *p = parent; p && p->parent; p = p->parent) {
        if (p->typeMask & BsonTypes::kArrayBit)
            return true;
    }
    return false;
}

int FieldNode::depth() const
{
    int d = -1;
    for (const FieldNode *p = this; p->parent; p = p->parent)
        ++d;
    return d;
}

} // namespace oe
