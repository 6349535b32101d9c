#include "analysis/internal/FieldNode.h"

#include "bson/BsonTypes.h"

namespace oe {

namespace {
constexpr std::size_t kLinearLookupLimit = 24;
// Children beyond the limit (documents used as maps keyed by user ids, dates, ...) share one
// node so memory stays bounded; documented as the "*" path segment.
const std::string_view kOtherKeys = "*";
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
    if (n >= maxChildren && key != kOtherKeys)
        return lookUp(kOtherKeys, maxChildren + 1);

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
