#include "measure/MeasurePlan.h"

#include "bson/BsonTypes.h"
#include "measure/MeasureProjection.h"

#include <QDataStream>
#include <QIODevice>
#include <QStringList>

namespace oe {

namespace {
constexpr quint32 kPlanMagic = 0x4f454d50; // "OEMP"
constexpr quint32 kPlanVersion = 4;
// Version 1: segments, children (name, holdsArrays), the element bytes limit.
// Version 2: and each summary's element types; the plan's rest bytes limit at the end.
// Version 3: and how array bytes are asked for (ArrayBytes, one byte) after the rest limit;
// a version 2 plan asks with the wrapper.
// Version 4: and how elements are checked (ElementCheck, one byte) at the end; a version 2 or 3
// plan checks them by expression.
constexpr quint32 kMaxEntries = 100000;

// One byte naming one of an enum's values up to `last`; false for any other.
template <typename Choice> bool readChoice(QDataStream &in, Choice last, Choice *out)
{
    quint8 value = 0;
    in >> value;
    if (value > quint8(last))
        return false;
    *out = Choice(value);
    return true;
}
} // namespace

std::string MeasurePlan::Summary::path() const
{
    std::string out;
    for (const std::string &s : segments) {
        if (!out.empty())
            out += '.';
        out += s;
    }
    return out;
}

bool MeasurePlan::Summary::hasOneElementType() const
{
    return !(elementTypes & BsonTypes::kArrayBit) && BsonTypes::names(elementTypes).size() == 1;
}

std::vector<MeasurePlan::ArrayNode> MeasurePlan::arrayNodes() const
{
    std::vector<ArrayNode> nodes;
    for (std::size_t i = 0; i < summaries.size(); ++i) {
        nodes.push_back({int(i), -1});
        for (std::size_t c = 0; c < summaries[i].children.size(); ++c)
            nodes.push_back({int(i), int(c)});
    }
    return nodes;
}

QString MeasurePlan::describe() const
{
    QStringList parts;
    for (const Summary &s : summaries)
        parts << QString::fromStdString(s.path());
    return parts.join(QStringLiteral(", "));
}

bool MeasurePlan::projectsElementCheck(const Summary &s) const
{
    if (elementCheck != ElementCheck::Projected || s.segments.size() != 1 || !s.hasOneElementType())
        return false;
    const std::string &name = s.segments.front();
    return name != "_id" && name != MeasureProjection::kSize &&
           name != MeasureProjection::kRecords && name != MeasureProjection::kDocument;
}

bool MeasurePlan::plainName(const std::string &name)
{
    return !name.empty() && name.front() != '$' && name.find('.') == std::string::npos &&
           name.find('\0') == std::string::npos;
}

QByteArray MeasurePlan::encode() const
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_0);
    out << kPlanMagic << kPlanVersion << quint32(summaries.size());
    for (const Summary &s : summaries) {
        out << quint32(s.segments.size());
        for (const std::string &segment : s.segments)
            out << QByteArray::fromStdString(segment);
        out << quint32(s.children.size());
        for (const Child &c : s.children)
            out << QByteArray::fromStdString(c.name) << c.holdsArrays;
        out << quint64(s.elementBytesLimit) << quint32(s.elementTypes);
    }
    const ElementCheck saved =
        elementCheck == ElementCheck::Known ? ElementCheck::Expression : elementCheck;
    out << quint64(restBytesLimit) << quint8(arrayBytes) << quint8(saved);
    return bytes;
}

std::optional<MeasurePlan> MeasurePlan::decode(const QByteArray &bytes)
{
    QDataStream in(bytes);
    in.setVersion(QDataStream::Qt_6_0);
    quint32 magic = 0, version = 0, count = 0;
    in >> magic >> version >> count;
    if (magic != kPlanMagic || version < 2 || version > kPlanVersion || count > kMaxEntries)
        return std::nullopt;
    MeasurePlan plan;
    for (quint32 i = 0; i < count && in.status() == QDataStream::Ok; ++i) {
        Summary s;
        quint32 segments = 0, children = 0;
        in >> segments;
        if (segments > kMaxEntries)
            return std::nullopt;
        for (quint32 k = 0; k < segments; ++k) {
            QByteArray segment;
            in >> segment;
            s.segments.push_back(segment.toStdString());
        }
        in >> children;
        if (children > kMaxEntries)
            return std::nullopt;
        for (quint32 k = 0; k < children; ++k) {
            QByteArray name;
            Child c;
            in >> name >> c.holdsArrays;
            c.name = name.toStdString();
            s.children.push_back(std::move(c));
        }
        quint64 limit = 0;
        quint32 types = 0;
        in >> limit >> types;
        s.elementBytesLimit = limit;
        s.elementTypes = types;
        plan.summaries.push_back(std::move(s));
    }
    quint64 rest = 0;
    in >> rest;
    plan.restBytesLimit = rest;
    if ((version >= 3 && !readChoice(in, ArrayBytes::Removed, &plan.arrayBytes)) ||
        (version >= 4 && !readChoice(in, ElementCheck::Projected, &plan.elementCheck)))
        return std::nullopt;
    if (in.status() != QDataStream::Ok || !in.atEnd())
        return std::nullopt;
    return plan;
}

bool MeasurePlan::isOlderFormat(const QByteArray &bytes)
{
    QDataStream in(bytes);
    in.setVersion(QDataStream::Qt_6_0);
    quint32 magic = 0, version = 0;
    in >> magic >> version;
    return in.status() == QDataStream::Ok && magic == kPlanMagic && version == 1;
}

} // namespace oe
