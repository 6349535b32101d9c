// ProfileBuilder's result: the field tree turned into FieldProfile values (ProfileBuilder.cpp
// walks the documents into the tree).
#include "analysis/ProfileBuilder.h"

#include "analysis/internal/FieldNode.h"
#include "analysis/internal/VersionWatch.h"
#include "bson/BsonTypes.h"

#include <algorithm>
#include <functional>

namespace oe {

namespace {
bool knownChild(const MeasurePlan::Summary &summary, const std::string &name)
{
    return std::any_of(summary.children.begin(), summary.children.end(),
                       [&](const MeasurePlan::Child &c) { return c.name == name; });
}
QString unseenArrays(const std::string &path)
{
    return QStringLiteral("%1: arrays the discovery sample did not show, counted only in the "
                          "documents read whole because the server's figures did not explain "
                          "their size (--measure client counts every one)")
        .arg(QString::fromStdString(path));
}
} // namespace

CollectionProfile ProfileBuilder::takeProfile()
{
    m_root->flushKeys();
    CollectionProfile profile;
    profile.documents = m_documents;
    profile.sizes = std::move(m_sizes);
    profile.largestDocuments = std::move(m_largestDocuments);
    profile.longestArrays = std::move(m_longestArrays);

    auto addField = [&](FieldNode &c, bool lengthsOnly) {
        FieldProfile f;
        f.path = c.path();
        f.typeMask = c.typeMask;
        f.elementTypeMask = c.elementTypeMask;
        f.presentDocuments = c.presentDocuments;
        f.values = c.values;
        f.bytes = c.bytes;
        f.arrays = c.arrays;
        if (c.lengths)
            f.lengths = *c.lengths;
        f.elementCount = c.elementCount;
        f.elementBytes = c.elementBytes;
        f.insideArray = c.insideArray();
        f.depth = c.depth();
        if (c.tail)
            f.longestPerDocument = std::move(*c.tail);
        if (!m_plan || m_shapeCounted)
            f.shape = std::move(c.shape);
        if (lengthsOnly) {
            // Only the arrays' count and lengths came from the server (and the documents read
            // whole saw the rest, which would be a part): the other figures are not shown.
            f.lengthsOnly = true;
            f.typeMask = BsonTypes::kArrayBit;
            f.elementTypeMask = 0;
            f.presentDocuments = f.values = f.bytes = f.elementBytes = 0;
        }
        profile.fields.push_back(std::move(f));
    };
    // Measured on the server: the _id, the plan's arrays and their children's arrays, and the
    // arrays the documents read whole held; not the other fields.
    std::function<void(FieldNode &, const MeasurePlan::Summary *)> measured =
        [&](FieldNode &node, const MeasurePlan::Summary *summarised) {
            for (auto &c : node.children) {
                const bool known = summarised && knownChild(*summarised, c->name);
                const bool id = !node.parent && c->name == "_id";
                if ((c->summary || id) && c->values > 0)
                    addField(*c, false);
                else if (known && c->arrays > 0)
                    addField(*c, true);
                else if (c->arrays > 0 && c->values > 0) {
                    profile.notes << unseenArrays(c->path());
                    addField(*c, false);
                }
                if (!summarised)
                    measured(*c, c->summary);
            }
        };
    std::function<void(FieldNode &)> walked = [&](FieldNode &node) {
        for (auto &c : node.children) {
            if (c->values > 0)
                addField(*c, false);
            walked(*c);
        }
    };
    VersionTally versions = m_versions->take();
    versions.absorb(std::move(m_mergedVersions));
    m_mergedVersions = VersionTally();
    if (m_plan && !m_shapeCounted) {
        measured(*m_root, nullptr);
    } else {
        walked(*m_root);
        profile.shape = std::move(m_shape);
        profile.versions = std::move(versions); // (a measurement walks no document's fields)
    }
    resetShape();
    std::sort(profile.fields.begin(), profile.fields.end(),
              [](const FieldProfile &a, const FieldProfile &b) { return a.path < b.path; });
    // The builder starts afresh, so it can be reused.
    m_root = std::make_unique<FieldNode>();
    measureWith(std::move(m_plan));
    m_documents = 0;
    m_sizes = Distribution();
    m_largestDocuments =
        CandidateTail(m_limits.largestDocumentsCapacity, m_limits.keepDocumentsLargerThan);
    m_longestArrays = CandidateTail(m_limits.longestArraysCapacity, m_limits.keepArraysLongerThan);
    return profile;
}

} // namespace oe
