#include "measure/ShapePlan.h"

#include "bson/BsonTypes.h"
#include "measure/internal/ExpressionJson.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace oe {

using namespace expr;

namespace {

A aliases(std::uint32_t mask)
{
    A out;
    for (const QString &name : BsonTypes::names(mask))
        out.append(name);
    return out;
}

// A version value (DocumentId's raw form) as extended JSON, its type kept.
J versionValue(const std::string &raw)
{
    const auto *bytes = reinterpret_cast<const std::uint8_t *>(raw.data()) + 1;
    const std::size_t length = raw.size() - 1;
    switch (raw.empty() ? 0 : int(std::uint8_t(raw[0]))) {
    case 0x02:
        return QString::fromUtf8(raw.data() + 1, qsizetype(length));
    case 0x10:
        if (length == 4)
            return O{{QStringLiteral("$numberInt"),
                      QString::number(std::int32_t(bytes[0] | bytes[1] << 8 | bytes[2] << 16 |
                                                   std::uint32_t(bytes[3]) << 24))}};
        break;
    case 0x12:
    case 0x01:
        if (length == 8) {
            std::uint64_t v = 0;
            for (int b = 7; b >= 0; --b)
                v = v << 8 | bytes[b];
            if (raw[0] == 0x12)
                return O{{QStringLiteral("$numberLong"), QString::number(std::int64_t(v))}};
            double d = 0;
            std::memcpy(&d, &v, 8);
            if (!std::isfinite(d)) // (NaN's payloads differ, the server's NaNs are one value)
                return J();
            return O{{QStringLiteral("$numberDouble"), QString::number(d, 'g', 17)}};
        }
        break;
    default:
        break;
    }
    return J();
}

// A version field's values: one the discovery saw (the server's enum compares numbers by
// value, as the versions do) or one no version has.
A versionValues(const ShapePlan::Path &p)
{
    A values;
    for (const std::string &raw : p.versions)
        if (const J v = versionValue(raw); !v.isNull())
            values.append(v);
    A anyOf;
    if (!values.isEmpty())
        anyOf.append(O{{QStringLiteral("enum"), values}});
    if (const std::uint32_t unfit = p.types & ~ShapePlan::kVersionTypes)
        anyOf.append(O{{QStringLiteral("bsonType"), aliases(unfit)}});
    return anyOf;
}

constexpr std::uint32_t kString = 1u << 0x02;
constexpr std::uint32_t kBinary = 1u << 0x05;

// The most characters a string may hold and be no big scalar whatever its characters (4 bytes
// each at most) and its key (20 bytes at most: an array index): past it, the document is read
// whole (the walk tells).
double smallString(const ShapePlan &plan)
{
    return plan.sizeLimit > 27 ? double((plan.sizeLimit - 27) / 4) : 0.0;
}

// Whether the schema holds path `i` to its types. The tallies' $type tuple sees every type of a
// path outside arrays, and a row of a type the plan does not know is read whole
// (TallyRun::irregular): checking them here too cost the matcher two thirds of its pass on a
// million small documents. But the fields of arrays' objects (their figures gather them as of
// one type), the version fields (their values are the tallies') and the paths that hold arrays
// or objects with arrays below (their figures size them) keep their types here.
bool typeChecked(const ShapePlan &plan, std::size_t i)
{
    const ShapePlan::Path &p = plan.paths[i];
    if (p.inElements || p.version || p.holds(BsonTypes::kArrayBit))
        return true;
    for (std::size_t j = i + 1; j < plan.paths.size(); ++j) {
        const ShapePlan::Path &below = plan.paths[j];
        if (below.segments.size() > p.segments.size() &&
            std::equal(p.segments.begin(), p.segments.end(), below.segments.begin()) &&
            below.holds(BsonTypes::kArrayBit))
            return true;
    }
    return false;
}

// The schema of the fields `parent` holds (-1: the document's), closed.
O closed(const ShapePlan &plan, int parent)
{
    O properties;
    if (parent < 0)
        properties.insert(
            QStringLiteral("_id"),
            O{{QStringLiteral("not"), O{{QStringLiteral("bsonType"),
                                         A{QStringLiteral("object"), QStringLiteral("array")}}}}});
    for (std::size_t i = 0; i < plan.paths.size(); ++i) {
        const ShapePlan::Path &p = plan.paths[i];
        if (p.parent != parent)
            continue;
        O schema = p.holds(BsonTypes::kDocumentBit) ? closed(plan, int(i)) : O{};
        if (typeChecked(plan, i))
            schema.insert(QStringLiteral("bsonType"), aliases(p.types));
        if (p.holds(kString))
            schema.insert(QStringLiteral("maxLength"), smallString(plan));
        if (p.version)
            schema.insert(QStringLiteral("anyOf"), versionValues(p));
        if (p.holds(BsonTypes::kArrayBit)) {
            O items = p.elementType == BsonTypes::kDocumentBit ? closed(plan, int(i)) : O{};
            items.insert(QStringLiteral("bsonType"), aliases(p.elementType));
            if (p.elementType & kString)
                items.insert(QStringLiteral("maxLength"), smallString(plan));
            if (p.elementType != 0)
                schema.insert(QStringLiteral("items"), items);
            else
                schema.insert(QStringLiteral("maxItems"), 0);
        }
        properties.insert(QString::fromStdString(p.segments.back()), schema);
    }
    return O{{QStringLiteral("properties"), properties},
             {QStringLiteral("additionalProperties"), false}};
}

} // namespace

QString ShapePlan::Path::expression() const
{
    QString out = QStringLiteral("$");
    for (std::size_t i = 0; i < segments.size(); ++i)
        out += (i ? QStringLiteral(".") : QString()) + QString::fromStdString(segments[i]);
    return out;
}

namespace {

// The indexes of the paths `test` holds for.
template <typename Test>
std::vector<int> where(const std::vector<ShapePlan::Path> &paths, Test test)
{
    std::vector<int> out;
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (test(paths[i]))
            out.push_back(int(i));
    return out;
}

} // namespace

std::vector<int> ShapePlan::variablePaths() const
{
    return where(paths, [](const Path &p) {
        return ((p.types | (p.inElements ? p.elementType : 0)) & (kString | kBinary)) && !p.version;
    });
}

std::vector<int> ShapePlan::objectArrays() const
{
    return where(paths, [](const Path &p) {
        return p.holds(BsonTypes::kArrayBit) && p.elementType == BsonTypes::kDocumentBit;
    });
}

std::vector<int> ShapePlan::elementFields() const
{
    return where(paths, [](const Path &p) { return p.inElements; });
}

std::vector<int> ShapePlan::nestedArrays(int a) const
{
    return where(paths, [a](const Path &p) {
        return p.inElements && p.parent == a && p.holds(BsonTypes::kArrayBit);
    });
}

std::vector<int> ShapePlan::mixedPaths() const
{
    return where(paths, [](const Path &p) { return p.mixedElements(); });
}

std::vector<int> ShapePlan::versionPaths() const
{
    return where(paths, [](const Path &p) { return p.version; });
}

std::vector<int> ShapePlan::objectPaths() const
{
    return where(paths, [](const Path &p) { return p.holds(BsonTypes::kDocumentBit); });
}

QByteArray ShapePlan::regular() const
{
    A all{O{{QStringLiteral("$jsonSchema"), closed(*this, -1)}}};
    // Strings are held short by the schema (maxLength); binaries, which it cannot bound, by the
    // document's own size.
    if (std::any_of(paths.begin(), paths.end(),
                    [](const Path &p) { return ((p.types | p.elementType) & kBinary) != 0; }))
        all.append(
            O{{QStringLiteral("$expr"),
               op("$lte", A{op("$bsonSize", QStringLiteral("$$ROOT")), double(sizeLimit)})}});
    return toDocument(O{{QStringLiteral("$and"), all}}).bytes();
}

} // namespace oe
