#include "analysis/ShapePlanner.h"

#include "analysis/PathSegment.h"
#include "analysis/VersionTally.h"
#include "bson/BsonTypes.h"

#include <algorithm>
#include <map>
#include <set>

namespace oe {

namespace {

std::vector<std::string> split(const std::string &path)
{
    std::vector<std::string> out(1);
    for (const char c : path) {
        if (c == '.')
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

// Past this many keys of the objects in an array, the plan is refused (keys used as data?).
constexpr std::size_t kMaxElementKeys = 25;

// Types a tally can size: fixed ones, and strings and binaries whose lengths it sums.
constexpr std::uint32_t kUnsized = BsonTypes::bit(0x06) | BsonTypes::bit(0x0B) |
                                   BsonTypes::bit(0x0C) | BsonTypes::bit(0x0D) |
                                   BsonTypes::bit(0x0E) | BsonTypes::bit(0x0F) | 1u;

// The discovery's fields outside arrays, at most ShapePlanner::kMaxPaths: past it, the rarest
// go (a child before its parent), and the documents holding them are read whole. (Those
// inside arrays stay, for plan() to refuse.)
std::vector<FieldProfile> kept(const CollectionProfile &discovery)
{
    std::vector<const FieldProfile *> outside;
    for (const FieldProfile &f : discovery.fields)
        if (!f.insideArray && f.path != "_id")
            outside.push_back(&f);
    std::set<std::string> dropped;
    if (outside.size() > ShapePlanner::kMaxPaths) {
        std::vector<const FieldProfile *> rarest = outside;
        std::stable_sort(rarest.begin(), rarest.end(),
                         [](const FieldProfile *a, const FieldProfile *b) {
                             return a->presentDocuments != b->presentDocuments
                                        ? a->presentDocuments < b->presentDocuments
                                        : a->depth > b->depth;
                         });
        for (std::size_t i = 0; i < outside.size() - ShapePlanner::kMaxPaths; ++i)
            dropped.insert(rarest[i]->path);
    }
    std::vector<FieldProfile> out;
    for (const FieldProfile &f : discovery.fields) {
        bool drop = dropped.count(f.path) > 0;
        for (std::size_t dot = f.path.find('.'); !drop && dot != std::string::npos;
             dot = f.path.find('.', dot + 1))
            drop = dropped.count(f.path.substr(0, dot)) > 0;
        if (!drop)
            out.push_back(f);
    }
    return out;
}

std::optional<ShapePlan> refuse(QString *why, const QString &reason)
{
    if (why)
        *why = reason;
    return std::nullopt;
}

// A top-level field the walk watches for schema versions: the values the discovery saw there.
// False where the tallies cannot group by them: too many for a version (the walk drops them),
// decimals (the server groups 1.0 with 1.00), or not one value a version has.
bool versionOf(const CollectionProfile &discovery, const FieldProfile &f, ShapePlan::Path *p,
               QString *why)
{
    const QString path = QString::fromStdString(f.path);
    const VersionTally::Field *field = discovery.versions.field(f.path);
    if (!field || field->tooManyValues) {
        *why = QStringLiteral("%1: a field of more than %2 values where a schema version is "
                              "looked for")
                   .arg(path)
                   .arg(VersionTally::kMaxValues);
        return false;
    }
    if (f.typeMask & BsonTypes::bit(0x13)) {
        *why = QStringLiteral("%1: a schema version of decimals").arg(path);
        return false;
    }
    p->version = true;
    for (const VersionTally::Group &g : field->groups)
        p->versions.push_back(g.raw);
    if (p->versions.empty() && !(f.typeMask & ~ShapePlan::kVersionTypes)) {
        *why = QStringLiteral("%1: a schema version field without a version value").arg(path);
        return false;
    }
    return true;
}

// Why the tallies cannot count the arrays at a path (`%1` for it), or nothing: arrays of
// scalars a tally can size, or of objects (their fields are the plan's paths too), no array in
// their elements.
QString arrayRefusal(const ShapePlan::Path &p, std::uint32_t elements,
                     const MeasurePlan::Summary *summary)
{
    if (elements & BsonTypes::kArrayBit)
        return QStringLiteral("%1: arrays of arrays");
    if ((elements & BsonTypes::kDocumentBit) && elements != BsonTypes::kDocumentBit)
        return QStringLiteral("%1: arrays of objects and other values");
    if (elements == BsonTypes::kDocumentBit && p.holds(BsonTypes::kDocumentBit))
        return QStringLiteral("%1: an object in some documents and an array of objects in others");
    if (elements & kUnsized)
        return QStringLiteral("%1: arrays of elements a tally cannot size (%2)")
            .arg(QStringLiteral("%1"),
                 BsonTypes::names(elements & kUnsized).join(QStringLiteral(", ")));
    if (!summary)
        return QStringLiteral("%1: arrays the measurement does not hold");
    return {};
}

// A field of the objects an array path of the plan holds (ShapePlan::Path::inElements), itself
// no object or array; false, with the reason, otherwise.
bool elementField(const FieldProfile &f, std::vector<std::string> segments,
                  const MeasurePlan &measure, ShapePlan &plan, std::map<std::string, int> &index,
                  QString *why)
{
    const QString path = QString::fromStdString(f.path);
    const std::string parent = f.path.substr(0, f.path.size() - segments.back().size() - 1);
    const auto at = index.find(parent);
    if (segments.size() < 2 || at == index.end() ||
        plan.paths[std::size_t(at->second)].elementType != BsonTypes::kDocumentBit) {
        refuse(why, QStringLiteral("%1: a field of arrays' elements nested deeper than one array "
                                   "of objects")
                        .arg(path));
        return false;
    }
    if (f.typeMask & (BsonTypes::kDocumentBit | kUnsized)) {
        refuse(why, QStringLiteral("%1: objects or values of a type a tally cannot size in arrays' "
                                   "elements")
                        .arg(path));
        return false;
    }
    ShapePlan::Path e;
    if (f.typeMask & BsonTypes::kArrayBit) {
        // Arrays of one scalar type, nothing else: their lengths are the records' (the
        // measurement's child of the array's summary).
        const std::uint32_t elements = f.elementTypeMask;
        const auto &children =
            measure.summaries[std::size_t(plan.paths[std::size_t(at->second)].summary)].children;
        const auto child =
            std::find_if(children.begin(), children.end(), [&](const MeasurePlan::Child &c) {
                return c.name == segments.back() && c.holdsArrays;
            });
        if (f.typeMask != BsonTypes::kArrayBit || (elements & (elements - 1)) != 0 ||
            (elements & (BsonTypes::kArrayBit | BsonTypes::kDocumentBit | kUnsized)) ||
            child == children.end()) {
            refuse(why, QStringLiteral("%1: in arrays' elements, arrays of more than one scalar "
                                       "type or beside other values")
                            .arg(path));
            return false;
        }
        e.elementType = elements;
        e.summary = int(child - children.begin());
    }
    e.types = f.typeMask;
    e.inElements = true;
    e.parent = at->second;
    e.segments = std::move(segments);
    if (!index.emplace(f.path, int(plan.paths.size())).second) {
        refuse(why, QStringLiteral("%1: a name with a dot").arg(path));
        return false;
    }
    plan.paths.push_back(std::move(e));
    return true;
}

// Why the plan cannot stand for the documents although each path could (or nothing): objects of
// many keys in arrays, an array the measurement holds that it does not.
QString incomplete(const ShapePlan &plan, const MeasurePlan &measure)
{
    // Objects of many keys in arrays: maybe keys used as data, whose keys per object the
    // tallies do not count (ServerTally declines past DataKeyFolder's count, too).
    for (const int a : plan.objectArrays())
        if (const auto keys =
                std::count_if(plan.paths.begin(), plan.paths.end(),
                              [&](const ShapePlan::Path &e) { return e.parent == a; });
            std::size_t(keys) >= kMaxElementKeys)
            return QStringLiteral("%1: objects of %2 keys in arrays, maybe keys used "
                                  "as data")
                .arg(plan.paths[std::size_t(a)].expression().mid(1))
                .arg(keys);
    // Every array path the plan measures is one of these (its summaries are top-level arrays
    // or arrays in objects, which the walk above saw), and so is every array in their elements.
    for (const ShapePlan::Path &a : plan.paths)
        if (a.summary >= 0 && !a.inElements)
            for (std::size_t c = 0; c < measure.summaries[std::size_t(a.summary)].children.size();
                 ++c)
                if (std::none_of(plan.paths.begin(), plan.paths.end(),
                                 [&](const ShapePlan::Path &e) {
                                     return e.inElements && e.summary == int(c) &&
                                            &plan.paths[std::size_t(e.parent)] == &a;
                                 }))
                    return QStringLiteral("%1.%2: arrays the shape does not hold")
                        .arg(a.expression().mid(1),
                             QString::fromStdString(
                                 measure.summaries[std::size_t(a.summary)].children[c].name));
    for (std::size_t i = 0; i < measure.summaries.size(); ++i)
        if (std::none_of(plan.paths.begin(), plan.paths.end(), [&](const ShapePlan::Path &p) {
                return !p.inElements && p.summary == int(i);
            }))
            return QStringLiteral("%1: arrays the shape does not hold")
                .arg(QString::fromStdString(measure.summaries[i].path()));
    return {};
}

} // namespace

std::optional<ShapePlan> ShapePlanner::plan(const CollectionProfile &discovery,
                                            const MeasurePlan &measure,
                                            std::uint64_t bigScalarBytes,
                                            const std::vector<std::string> &versionFields,
                                            QString *why)
{
    ShapePlan plan;
    plan.sizeLimit = bigScalarBytes;
    std::map<std::string, int> index; // path -> plan.paths' index
    for (const FieldProfile &f : kept(discovery)) {
        const QString path = QString::fromStdString(f.path);
        if (f.path == "_id")
            continue;
        if (f.path.rfind("_id.", 0) == 0)
            return refuse(why, QStringLiteral("an _id that is an object"));
        std::vector<std::string> segments = split(f.path);
        for (const std::string &s : segments)
            if (!MeasurePlan::plainName(s) || PathSegment::standsForManyKeys(s) ||
                s == PathSegment::kNestedArray)
                return refuse(
                    why, QStringLiteral("%1: a name the server cannot be asked about").arg(path));
        if (f.insideArray) {
            if (!elementField(f, std::move(segments), measure, plan, index, why))
                return std::nullopt;
            continue;
        }
        ShapePlan::Path p;
        QString unversioned;
        if (segments.size() == 1 &&
            std::find(versionFields.begin(), versionFields.end(), f.path) != versionFields.end() &&
            !versionOf(discovery, f, &p, &unversioned))
            return refuse(why, unversioned);
        if (f.typeMask & kUnsized)
            return refuse(
                why,
                QStringLiteral("%1: values of a type a tally cannot size (%2)")
                    .arg(path, BsonTypes::names(f.typeMask & kUnsized).join(QStringLiteral(", "))));
        p.types = f.typeMask;
        if (segments.size() > 1) {
            std::string parent = f.path.substr(0, f.path.size() - segments.back().size() - 1);
            const auto at = index.find(parent);
            if (at == index.end() ||
                !plan.paths[std::size_t(at->second)].holds(BsonTypes::kDocumentBit))
                return refuse(why, QStringLiteral("%1: a name with a dot").arg(path));
            p.parent = at->second;
        }
        if (p.holds(BsonTypes::kArrayBit)) {
            const auto s = std::find_if(
                measure.summaries.begin(), measure.summaries.end(),
                [&](const MeasurePlan::Summary &sum) { return sum.segments == segments; });
            const std::uint32_t elements = f.elementTypeMask;
            if (const QString no =
                    arrayRefusal(p, elements, s != measure.summaries.end() ? &*s : nullptr);
                !no.isEmpty())
                return refuse(why, no.arg(path));
            p.summary = int(s - measure.summaries.begin());
            p.elementType = elements;
        }
        p.segments = std::move(segments);
        if (!index.emplace(f.path, int(plan.paths.size())).second)
            return refuse(why, QStringLiteral("%1: a name with a dot").arg(path));
        plan.paths.push_back(std::move(p));
    }
    if (const QString no = incomplete(plan, measure); !no.isEmpty())
        return refuse(why, no);
    return plan;
}

} // namespace oe
