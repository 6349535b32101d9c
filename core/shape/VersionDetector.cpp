#include "shape/VersionDetector.h"

#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"
#include "shape/ShapeDetector.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace oe {

namespace {

using Field = VersionTally::Field;

QString nameOf(const std::string &field)
{
    return QString::fromStdString(field);
}

QString percent(std::uint64_t count, std::uint64_t total)
{
    const double p = total ? 100.0 * double(count) / double(total) : 0.0;
    return QStringLiteral("%1 %").arg(p, 0, 'g', p < 0.01 ? 2 : 4);
}

// Every document was looked at for the field, and its values are few.
bool complete(const Field &f, std::uint64_t documents)
{
    return f.watched == documents && f.present > 0 && !f.tooManyValues;
}

bool likely(const Field &f, std::uint64_t documents)
{
    return complete(f, documents) && 2 * f.present > documents && 100 * f.unfit <= f.present &&
           !f.groups.empty();
}

const Field *detected(const VersionTally &tally, std::uint64_t documents)
{
    const Field *best = nullptr;
    for (const std::string &name : VersionTally::knownNames()) // the usual order breaks a tie
        if (const Field *f = tally.field(name);
            f && likely(*f, documents) && (!best || f->present > best->present))
            best = f;
    return best;
}

const Field *named(const VersionTally &tally, const std::string &name, std::uint64_t documents,
                   QString *note)
{
    const Field *f = tally.field(name);
    const QString n = nameOf(name);
    if (!f || f->watched != documents)
        *note = QStringLiteral("the version field %1 was not looked for in every document: "
                               "analyse again with it named")
                    .arg(n);
    else if (f->present == 0)
        *note = QStringLiteral("the version field %1 is in none of the %2 documents")
                    .arg(n)
                    .arg(documents);
    else if (f->tooManyValues)
        *note = QStringLiteral("%1 has more than %2 distinct values: a counter, not a schema "
                               "version")
                    .arg(n)
                    .arg(VersionTally::kMaxValues);
    else
        return f;
    return nullptr;
}

// What the walk counted in one version's documents, as a profile of presence and types.
CollectionProfile profileOf(const VersionTally::Group &group)
{
    CollectionProfile p;
    p.documents = group.documents;
    for (const VersionTally::Path &path : group.paths) {
        FieldProfile f;
        f.path = path.path;
        f.depth = int(std::count(path.path.begin(), path.path.end(), '.'));
        f.presentDocuments = path.presentDocuments;
        f.shape.types = path.types;
        f.shape.elementTypes = path.elementTypes;
        f.shape.examples = path.examples;
        p.fields.push_back(std::move(f));
    }
    return p;
}

TypeCounts minus(TypeCounts a, const TypeCounts &b)
{
    for (int i = 0; i < TypeCounts::kSlots; ++i)
        a.n[std::size_t(i)] -= std::min(a.n[std::size_t(i)], b.n[std::size_t(i)]);
    return a;
}

// The documents without a version value: the whole collection less each version's.
CollectionProfile restOf(const CollectionProfile &whole, const Field &field, std::uint64_t rest)
{
    CollectionProfile p;
    p.documents = rest;
    for (const FieldProfile &w : whole.fields) {
        FieldProfile f;
        f.path = w.path;
        f.depth = w.depth;
        f.presentDocuments = w.presentDocuments;
        f.shape.types = w.shape.types;
        f.shape.elementTypes = w.shape.elementTypes;
        for (const VersionTally::Group &g : field.groups) {
            const auto it = std::lower_bound(
                g.paths.begin(), g.paths.end(), w.path,
                [](const VersionTally::Path &x, const std::string &s) { return x.path < s; });
            if (it == g.paths.end() || it->path != w.path)
                continue;
            f.presentDocuments -= std::min(f.presentDocuments, it->presentDocuments);
            f.shape.types = minus(f.shape.types, it->types);
            f.shape.elementTypes = minus(f.shape.elementTypes, it->elementTypes);
        }
        if (f.presentDocuments > 0)
            p.fields.push_back(std::move(f));
    }
    return p;
}

// "schema_version 1: string 100 %; schema_version 2: object 100 %" (a mixed type), or
// "schema_version 3: in 100 % of its documents; not in the other versions" (a rare field).
QString explanation(const ShapeFlag &flag, const SchemaVersions &versions,
                    const std::vector<CollectionProfile> &profiles)
{
    QStringList parts;
    std::size_t without = 0;
    for (std::size_t i = 0; i < versions.shares.size(); ++i) {
        const FieldProfile *f = profiles[i].field(flag.path);
        const QString label = versions.label(versions.shares[i]);
        if (!f || f->presentDocuments == 0) {
            ++without;
            continue;
        }
        if (flag.kind == ShapeFlag::Kind::RareField) {
            parts << QStringLiteral("%1: in %2 of its documents")
                         .arg(label, percent(f->presentDocuments, profiles[i].documents));
            continue;
        }
        const TypeCounts &t =
            flag.kind == ShapeFlag::Kind::MixedTypes ? f->shape.types : f->shape.elementTypes;
        QStringList mix;
        for (int s : t.byCount())
            mix << QStringLiteral("%1 %2").arg(BsonTypes::name(s),
                                               percent(t.n[std::size_t(s)], t.total()));
        if (!mix.isEmpty())
            parts << QStringLiteral("%1: %2").arg(label, mix.join(QStringLiteral(", ")));
    }
    if (without > 0)
        parts << (parts.isEmpty() ? QStringLiteral("in no version")
                                  : QStringLiteral("not in the other versions"));
    return QStringLiteral("explained by the schema versions (%1)")
        .arg(parts.join(QStringLiteral("; ")));
}

// A number's value from its raw form (int32, int64, double), for the versions' order.
std::optional<double> numberOf(const std::string &raw)
{
    if (raw.empty())
        return std::nullopt;
    const char type = raw.front();
    if (type == 0x10 && raw.size() == 5) {
        std::int32_t v;
        std::memcpy(&v, raw.data() + 1, 4);
        return double(v); // (little-endian hosts only: the project's Debian targets)
    }
    if ((type == 0x12 || type == 0x01) && raw.size() == 9) {
        if (type == 0x01) {
            double v;
            std::memcpy(&v, raw.data() + 1, 8);
            return v;
        }
        std::int64_t v;
        std::memcpy(&v, raw.data() + 1, 8);
        return double(v);
    }
    return std::nullopt;
}

// Numbers by value first (1, 2, 10), then the other values as the server's order has them.
bool versionBefore(const VersionTally::Group *a, const VersionTally::Group *b)
{
    const auto x = numberOf(a->raw), y = numberOf(b->raw);
    if (x && y)
        return *x < *y;
    if (x || y)
        return bool(x);
    return a->raw < b->raw;
}

// Documents with far more fields (or nesting) than the rest are explained when within each
// version none is far above its own version's: "explained by the schema versions
// (schema_version 1: median 5, max 6 fields; schema_version 3: median 11, max 11 fields)".
using Threshold = StatisticalThreshold (*)(const Distribution &, const DetectionOptions &);
QString perDocument(const SchemaVersions &versions, const std::vector<const Distribution *> &by,
                    const DetectionOptions &detection, Threshold threshold, const QString &unit)
{
    QStringList parts;
    for (std::size_t i = 0; i < versions.shares.size(); ++i) {
        const Distribution &d = *by[i];
        if (d.count() == 0)
            continue;
        if (d.max() > threshold(d, detection).value)
            return {}; // an outlier within its own version: a real one
        parts << QStringLiteral("%1: median %2, max %3 %4")
                     .arg(versions.label(versions.shares[i]))
                     .arg(d.quantile(0.5))
                     .arg(d.max())
                     .arg(unit);
    }
    return QStringLiteral("explained by the schema versions (%1)")
        .arg(parts.join(QStringLiteral("; ")));
}

bool sameFlag(const ShapeFlag &a, const ShapeFlag &b)
{
    return a.kind == b.kind && a.path == b.path && a.type == b.type;
}

QStringList candidatesOf(const VersionTally &tally, std::uint64_t documents)
{
    QStringList out;
    for (const Field &f : tally.fields)
        if (complete(f, documents))
            out << nameOf(f.name);
    return out;
}

} // namespace

void VersionDetector::apply(const CollectionProfile &profile, const ShapeOptions &options,
                            const DetectionOptions &detection, ShapeReport &report)
{
    SchemaVersions &versions = report.versions;
    versions = SchemaVersions();
    versions.documents = profile.documents;
    versions.candidates = candidatesOf(profile.versions, profile.documents);
    const Field *field = nullptr;
    const bool watched =
        std::any_of(profile.versions.fields.begin(), profile.versions.fields.end(),
                    [&](const Field &f) { return f.watched == profile.documents; });
    if (!watched && options.versions != ShapeOptions::Versions::Off) {
        versions.note = QStringLiteral("schema versions not counted in every document (a scan "
                                       "resumed from a state an older version saved)");
        return;
    }
    switch (options.versions) {
    case ShapeOptions::Versions::Off:
        versions.note = QStringLiteral("schema versions not looked for");
        return;
    case ShapeOptions::Versions::Named:
        field = named(profile.versions, options.versionField, profile.documents, &versions.note);
        versions.source = SchemaVersions::Source::Named;
        break;
    case ShapeOptions::Versions::Detect:
        field = detected(profile.versions, profile.documents);
        versions.source = SchemaVersions::Source::Detected;
        if (!field)
            versions.note = QStringLiteral("no schema version field: none of schema_version, "
                                           "schemaVersion, _v, version is in most documents "
                                           "with at most %1 values")
                                .arg(VersionTally::kMaxValues);
        break;
    }
    if (!field) {
        versions.source = SchemaVersions::Source::None;
        return;
    }
    versions.field = field->name;
    std::vector<CollectionProfile> profiles;
    std::uint64_t versioned = 0;
    std::vector<const Distribution *> fieldCounts, depths; // by share
    std::vector<const VersionTally::Group *> groups;
    for (const VersionTally::Group &g : field->groups)
        groups.push_back(&g);
    std::stable_sort(groups.begin(), groups.end(), versionBefore);
    for (const VersionTally::Group *g : groups) {
        versions.shares.push_back({g->raw, DocumentId::toRelaxedJson(g->raw), g->documents});
        profiles.push_back(profileOf(*g));
        fieldCounts.push_back(&g->fieldCounts);
        depths.push_back(&g->depths);
        versioned += g->documents;
    }
    if (versioned < profile.documents) {
        const std::uint64_t rest = profile.documents - versioned;
        versions.shares.push_back({{}, QStringLiteral("(none)"), rest});
        profiles.push_back(restOf(profile, *field, rest));
        fieldCounts.push_back(&field->restFieldCounts);
        depths.push_back(&field->restDepths);
    }
    // The version field's own flags (a value no version has, an object among the numbers) are
    // the whole collection's: no version explains them, none is judged within one.
    const auto ofTheVersionField = [&](const ShapeFlag &flag) {
        return flag.path == field->name || flag.path.rfind(field->name + '.', 0) == 0;
    };
    for (std::size_t i = 0; i < versions.shares.size(); ++i) {
        const SchemaVersions::Share &share = versions.shares[i];
        const QString label = versions.label(share);
        for (ShapeFlag &flag : ShapeDetector::fieldFlags(profiles[i], options)) {
            if (ofTheVersionField(flag))
                continue;
            flag.version = ShapeFlag::Version{field->name, share.raw, label, {}};
            if (share.raw.empty())
                for (const SchemaVersions::Share &other : versions.shares)
                    if (!other.raw.empty())
                        flag.version->versionValues.push_back(other.raw);
            flag.detail = QStringLiteral("%1: %2").arg(label, flag.detail);
            versions.flags.push_back(std::move(flag));
        }
    }
    for (ShapeFlag &flag : report.flags) {
        if (flag.kind == ShapeFlag::Kind::ManyFields || flag.kind == ShapeFlag::Kind::DeepNesting) {
            const bool many = flag.kind == ShapeFlag::Kind::ManyFields;
            flag.explainedBy = perDocument(
                versions, many ? fieldCounts : depths, detection,
                many ? &ShapeDetector::fieldCountThreshold : &ShapeDetector::depthThreshold,
                many ? QStringLiteral("fields") : QStringLiteral("levels deep"));
            if (!flag.explainedBy.isEmpty())
                flag.explainer = ShapeFlag::Explainer::Versions;
            continue;
        }
        if (!flag.isFieldKind() || ofTheVersionField(flag))
            continue;
        const bool inAVersion = std::any_of(versions.flags.begin(), versions.flags.end(),
                                            [&](const ShapeFlag &v) { return sameFlag(v, flag); });
        if (!inAVersion && flag.explainedBy.isEmpty()) {
            flag.explainedBy = explanation(flag, versions, profiles);
            if (!flag.explainedBy.isEmpty())
                flag.explainer = ShapeFlag::Explainer::Versions;
        }
    }
}

} // namespace oe
