#include "bson/SizeAnatomy.h"

#include "bson/DocumentOutline.h"

#include <QCoreApplication>
#include <QtEndian>

#include <algorithm>
#include <cstring>
#include <limits>

namespace oe {

namespace {

constexpr qint64 kAll = std::numeric_limits<qint64>::max();
constexpr int kMaxDepth = 200; // DocumentOutline reads deeper levels; MongoDB nests 100

// An element's bytes in its parent: type byte, name with its terminator, value.
qint64 elementBytes(const OutlineEntry &e)
{
    return 1 + qint64(e.key.toUtf8().size()) + 1 + e.valueBytes;
}

SizeAnatomy::Part partOf(const OutlineEntry &e)
{
    return {e.key, e.type, elementBytes(e), e.childCount};
}

} // namespace

SizeAnatomy SizeAnatomy::of(const QByteArray &document, QString *error)
{
    SizeAnatomy a;
    qint64 total = 0;
    QString problem;
    const std::vector<OutlineEntry> fields =
        DocumentOutline::children(document, 0, 0, kAll, &total, &problem);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return {};
    }
    std::int32_t length = 0;
    std::memcpy(&length, document.constData(), 4);
    a.documentBytes = qFromLittleEndian(length);
    a.fields.reserve(fields.size());
    for (const OutlineEntry &e : fields)
        a.fields.push_back(partOf(e));
    std::sort(a.fields.begin(), a.fields.end(), [](const Part &x, const Part &y) {
        return x.bytes != y.bytes ? x.bytes > y.bytes : x.key < y.key;
    });
    if (fields.empty())
        return a;

    // Down the heaviest child while it holds half of its parent.
    const auto heaviestOf = [](const std::vector<OutlineEntry> &level) {
        return std::max_element(level.begin(), level.end(),
                                [](const OutlineEntry &x, const OutlineEntry &y) {
                                    return x.valueBytes < y.valueBytes;
                                });
    };
    OutlineEntry at = *heaviestOf(fields);
    a.heaviestPath = at.key;
    a.heaviest = partOf(at);
    a.heaviestDepth = 1;
    while (at.isContainer() && at.childCount > 0 && a.heaviestDepth < kMaxDepth) {
        qint64 count = 0;
        const std::vector<OutlineEntry> level =
            DocumentOutline::children(document, at.childOffset, 0, kAll, &count, &problem);
        if (!problem.isEmpty() || level.empty())
            break;
        const OutlineEntry next = *heaviestOf(level);
        if (2 * elementBytes(next) < at.valueBytes)
            break;
        at = next;
        a.heaviestPath += QLatin1Char('.') + at.key;
        a.heaviest = partOf(at);
        ++a.heaviestDepth;
    }
    return a;
}

std::vector<SizeAnatomy::Part> SizeAnatomy::top(std::size_t count) const
{
    if (fields.size() <= count)
        return fields;
    std::vector<Part> shown(fields.begin(), fields.begin() + std::ptrdiff_t(count));
    Part rest;
    for (auto it = fields.begin() + std::ptrdiff_t(count); it != fields.end(); ++it)
        rest.bytes += it->bytes;
    const auto others = qsizetype(fields.size() - count);
    rest.key =
        QCoreApplication::translate("SizeAnatomy", "(%n other fields)", nullptr, int(others));
    shown.push_back(rest);
    return shown;
}

} // namespace oe
