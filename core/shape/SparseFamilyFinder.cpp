#include "shape/SparseFamilyFinder.h"

#include "bson/BsonTypes.h"

#include <algorithm>
#include <set>

namespace oe {

namespace {

QString percent(double share)
{
    const double p = 100.0 * share;
    return QStringLiteral("%1 %").arg(p, 0, 'g', p < 0.01 ? 2 : 3);
}

// A scalar field, its values mostly (90 %) of one type: that type's slot, else -1.
int scalarSlot(const FieldProfile &f)
{
    const TypeCounts &t = f.shape.types;
    const int majority = t.majority();
    if (majority < 0 || majority == TypeCounts::slotOf(0x03) ||
        majority == TypeCounts::slotOf(0x04))
        return -1; // objects and arrays are not attributes
    if (10 * t.n[std::size_t(majority)] < 9 * t.total())
        return -1;
    return majority;
}

bool member(const ShapeFlag &flag, const std::set<std::string> &members)
{
    return flag.kind == ShapeFlag::Kind::RareField && members.count(flag.path) > 0;
}

} // namespace

void SparseFamilyFinder::find(const CollectionProfile &profile, const ShapeOptions &options,
                              ShapeReport &report)
{
    const std::uint64_t documents = profile.documents;
    const std::string &versionField = report.versions.field;
    std::vector<const FieldProfile *> family;
    std::set<int> typeSlots;
    std::uint64_t held = 0; // documents' memberships: a document holding 6 members counts 6
    for (const FieldProfile &f : profile.fields) {
        if (f.depth != 0 || f.path == "_id" || f.path == versionField || f.presentDocuments == 0 ||
            double(f.presentDocuments) >= options.sparseShare * double(documents))
            continue;
        const int slot = scalarSlot(f);
        // Members are small values of one role; a big value (a scan, a blob) is the subset
        // or GridFS remedy's, never moved into the array and its index.
        if (slot < 0 || f.shape.bigValues > 0)
            continue;
        family.push_back(&f);
        typeSlots.insert(slot);
        held += f.presentDocuments;
    }
    if (family.size() < options.sparseMinFields || int(typeSlots.size()) > kMaxTypes ||
        documents == 0)
        return;
    const double perDocument = double(held) / double(documents);
    if (perDocument > kMaxSubset * double(family.size()))
        return;
    std::stable_sort(family.begin(), family.end(),
                     [](const FieldProfile *a, const FieldProfile *b) {
                         return a->presentDocuments > b->presentDocuments;
                     });
    ShapeFlag flag = ShapeFlag::of(
        ShapeFlag::Kind::SparseFields, {}, family.size(),
        std::uint64_t(std::count_if(profile.fields.begin(), profile.fields.end(),
                                    [](const FieldProfile &f) { return f.depth == 0; })));
    QStringList types;
    for (int s : typeSlots)
        types << BsonTypes::name(s);
    const FieldProfile &median = *family[family.size() / 2];
    if (median.presentDocuments < kMinMedianDocuments)
        return; // one document's extra fields (many_fields), not attributes spread over many
    flag.detail =
        QStringLiteral("%1 top-level fields each in under %2 of the documents (median %3), of "
                       "types %4; a document holds %5 of them on average: the attribute "
                       "pattern's case (one array of {k, v}, indexed {k: 1, v: 1})")
            .arg(family.size())
            .arg(percent(options.sparseShare),
                 percent(double(median.presentDocuments) / double(documents)),
                 types.join(QStringLiteral(", ")))
            .arg(perDocument, 0, 'f', 1);
    for (const FieldProfile *f : family) {
        flag.members.push_back(f->path);
        for (const ShapeExample &e : f->shape.examplesOf(FieldShape::presenceSlot, 1))
            if (flag.examples.size() < options.examples &&
                std::none_of(flag.examples.begin(), flag.examples.end(),
                             [&](const ShapeFlag::Example &x) { return x.docIndex == e.docIndex; }))
                flag.examples.push_back({e.rawId, e.docIndex});
    }
    const std::set<std::string> members(flag.members.begin(), flag.members.end());
    const QString why = QStringLiteral("one of the %1 sparse fields (sparse_fields: the attribute "
                                       "pattern's case)")
                            .arg(family.size());
    for (std::vector<ShapeFlag> *flags : {&report.flags, &report.versions.flags})
        for (ShapeFlag &f : *flags)
            if (member(f, members) && f.explainedBy.isEmpty()) {
                f.explainedBy = why;
                f.explainer = ShapeFlag::Explainer::SparseFamily;
            }
    report.flags.push_back(std::move(flag));
}

} // namespace oe
