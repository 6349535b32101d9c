#include "remedy/convert/ConvertTypeRemedy.h"

#include "guard/GuardRule.h"
#include "remedy/internal/RawValues.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace oe {

using namespace rawvalues;

namespace {

// Whether a double holds `n` exactly (every integer up to 2^53 does; past it, some).
bool exactInDouble(std::int64_t n)
{
    const double d = double(n);
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0 && std::int64_t(d) == n;
}

// The significant digits of a decimal number's text (from its first non-zero digit to its last,
// before any exponent): a double keeps up to 15 of them exactly.
int significantDigits(const char *text, std::size_t length)
{
    int first = -1, last = -1, position = 0;
    for (std::size_t i = 0; i < length; ++i) {
        const char c = text[i];
        if (c == 'e' || c == 'E')
            break;
        if (c < '0' || c > '9')
            continue;
        if (c != '0') {
            if (first < 0)
                first = position;
            last = position;
        }
        ++position;
    }
    return first < 0 ? 0 : last - first + 1;
}

constexpr int kDoubleDigits = 15;

// A decimal number's text as its significant digits (no leading or trailing zeros) and the
// power of ten of the first of them: "0.0120e3" is {"12", 1}.
std::pair<std::string, int> decimalOf(const char *text, std::size_t length)
{
    std::string digits;
    int before = 0, exponent = 0, first = -1, position = 0;
    bool point = false;
    for (std::size_t i = 0; i < length; ++i) {
        const char c = text[i];
        if (c == 'e' || c == 'E') {
            std::from_chars(text + i + 1 + (text[i + 1] == '+' ? 1 : 0), text + length, exponent);
            break;
        }
        if (c == '.') {
            point = true;
            continue;
        }
        if (c < '0' || c > '9')
            continue;
        if (!point)
            ++before;
        if (c != '0' && first < 0)
            first = position;
        if (first >= 0)
            digits += c;
        ++position;
    }
    while (!digits.empty() && digits.back() == '0')
        digits.pop_back();
    return {digits, first < 0 ? 0 : before - first - 1 + exponent};
}

// Whether `d` (parsed from `text`) keeps every digit of it: the shortest text that reads back
// as the double is the text's number. A normal double keeps any 15 digits (so that is the same
// as counting them); a subnormal one (below 2.2e-308) has fewer bits: "4.9e-324" reads back as
// 5e-324.
bool keepsEveryDigit(const char *text, std::size_t length, double d)
{
    char buffer[64];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(d));
    return written.ec == std::errc() &&
           decimalOf(buffer, std::size_t(written.ptr - buffer)) == decimalOf(text, length);
}

// The shortest text that reads back as `d` ("1.23456789e-315").
QString shortest(double d)
{
    char buffer[64];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, d);
    return QString::fromLatin1(buffer, qsizetype(written.ptr - buffer));
}

// A whole string as a number of type T: no white space, no part of it, no "nan".
template <typename T> std::optional<T> parseWhole(const char *text, std::size_t length)
{
    T out{};
    const auto [end, error] = std::from_chars(text, text + length, out);
    if (error != std::errc() || end != text + length)
        return std::nullopt;
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(out))
            return std::nullopt;
    }
    return out;
}

// An exact integer of `value` within [low, high], or nullopt.
std::optional<std::int64_t> exactInteger(const bson_iter_t *value, std::int64_t low,
                                         std::int64_t high)
{
    std::optional<std::int64_t> n;
    switch (bson_iter_type(value)) {
    case BSON_TYPE_INT32:
        n = bson_iter_int32(value);
        break;
    case BSON_TYPE_INT64:
        n = bson_iter_int64(value);
        break;
    case BSON_TYPE_DOUBLE: {
        const double d = bson_iter_double(value);
        // 2^63 is the first double past int64's range.
        if (std::isfinite(d) && std::trunc(d) == d && d >= -9223372036854775808.0 &&
            d < 9223372036854775808.0)
            n = std::int64_t(d);
        break;
    }
    case BSON_TYPE_UTF8: {
        std::uint32_t length = 0;
        const char *text = bson_iter_utf8(value, &length);
        n = parseWhole<std::int64_t>(text, length);
        break;
    }
    default:
        break;
    }
    if (n && (*n < low || *n > high))
        return std::nullopt;
    return n;
}

RewriteResult toDouble(const bson_iter_t *value)
{
    switch (bson_iter_type(value)) {
    case BSON_TYPE_INT32:
        return changed(rawOf(
            [&](bson_t *out) { bson_append_double(out, "v", 1, double(bson_iter_int32(value))); }));
    case BSON_TYPE_INT64: {
        const std::int64_t n = bson_iter_int64(value);
        if (!exactInDouble(n))
            return cannot(QStringLiteral("the long %1 has no exact double").arg(n));
        return changed(rawOf([&](bson_t *out) { bson_append_double(out, "v", 1, double(n)); }));
    }
    case BSON_TYPE_UTF8: {
        std::uint32_t length = 0;
        const char *text = bson_iter_utf8(value, &length);
        const auto d = parseWhole<double>(text, length);
        if (!d)
            return cannot(QStringLiteral("the string %1 is not a number")
                              .arg(ValueRewriter::toJson(bsonraw::valueOf(value))));
        if (significantDigits(text, length) > kDoubleDigits)
            return cannot(QStringLiteral("the string %1 has more than %2 significant digits: a "
                                         "double would round it")
                              .arg(ValueRewriter::toJson(bsonraw::valueOf(value)))
                              .arg(kDoubleDigits));
        if (!keepsEveryDigit(text, length, *d))
            return cannot(QStringLiteral("the string %1 has no exact double (it is below the "
                                         "doubles' full precision): it would become %2")
                              .arg(ValueRewriter::toJson(bsonraw::valueOf(value)), shortest(*d)));
        return changed(rawOf([&](bson_t *out) { bson_append_double(out, "v", 1, *d); }));
    }
    default:
        return cannot(QStringLiteral("a %1 is not a number").arg(typeName(bson_iter_type(value))));
    }
}

RewriteResult toInteger(const bson_iter_t *value, bool isLong)
{
    const std::int64_t low = isLong ? std::numeric_limits<std::int64_t>::min()
                                    : std::numeric_limits<std::int32_t>::min();
    const std::int64_t high = isLong ? std::numeric_limits<std::int64_t>::max()
                                     : std::numeric_limits<std::int32_t>::max();
    const auto n = exactInteger(value, low, high);
    if (!n)
        return cannot(QStringLiteral("%1 is not a whole number in the %2 range")
                          .arg(ValueRewriter::toJson(bsonraw::valueOf(value)),
                               isLong ? QStringLiteral("long") : QStringLiteral("int")));
    return changed(rawOf([&](bson_t *out) {
        if (isLong)
            bson_append_int64(out, "v", 1, *n);
        else
            bson_append_int32(out, "v", 1, std::int32_t(*n));
    }));
}

RewriteResult toText(const bson_iter_t *value)
{
    std::string text;
    switch (bson_iter_type(value)) {
    case BSON_TYPE_INT32:
        text = std::to_string(bson_iter_int32(value));
        break;
    case BSON_TYPE_INT64:
        text = std::to_string(bson_iter_int64(value));
        break;
    case BSON_TYPE_DOUBLE: {
        char buffer[64];
        const double d = bson_iter_double(value);
        if (!std::isfinite(d))
            return cannot(QStringLiteral("the double %1 has no number text").arg(d));
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, d); // shortest exact
        text.assign(buffer, result.ptr);
        break;
    }
    case BSON_TYPE_DECIMAL128: {
        bson_decimal128_t dec;
        char buffer[BSON_DECIMAL128_STRING];
        bson_iter_decimal128(value, &dec);
        bson_decimal128_to_string(&dec, buffer);
        text = buffer;
        break;
    }
    case BSON_TYPE_BOOL:
        text = bson_iter_bool(value) ? "true" : "false";
        break;
    default:
        return cannot(
            QStringLiteral("a %1 has no text of its own").arg(typeName(bson_iter_type(value))));
    }
    return changed(
        rawOf([&](bson_t *out) { bson_append_utf8(out, "v", 1, text.data(), int(text.size())); }));
}
} // namespace

QString ConvertTypeRemedy::cliHelp() const
{
    return QStringLiteral("Convert the field to double, int, long or string where that is "
                          "exact; what cannot be converted is listed and left as it is.");
}

QString ConvertTypeRemedy::label() const
{
    return QStringLiteral("Convert to one type (where that is exact)");
}

QString ConvertTypeRemedy::offer(const RewriteConfig &config) const
{
    return QStringLiteral("Convert every value to %1 where that is exact").arg(config.targetType);
}

std::optional<RewriteConfig> ConvertTypeRemedy::suggest(const ShapeFlag &flag,
                                                        const FieldProfile &field, const QString &,
                                                        qint64) const
{
    RewriteConfig config;
    config.kind = kind();
    for (const QString &type : GuardRule::forMixedType(flag, field).types)
        if (RewriteConfig::convertibleTypes().contains(type)) {
            config.targetType = type;
            return config;
        }
    return std::nullopt;
}

QString ConvertTypeRemedy::problem(const RewriteConfig &config) const
{
    if (!RewriteConfig::convertibleTypes().contains(config.targetType))
        return QStringLiteral("type '%1': a field converts to %2")
            .arg(config.targetType, RewriteConfig::convertibleTypes().join(QStringLiteral(", ")));
    return {};
}

QString ConvertTypeRemedy::describe(const RewriteConfig &config) const
{
    return QStringLiteral("%1: to %2").arg(config.path, config.targetType);
}

QString ConvertTypeRemedy::subject(const RewriteConfig &config) const
{
    return QStringLiteral("not %1 or null").arg(config.targetType);
}

RewriteResult ConvertTypeRemedy::rewrite(const RewriteConfig &config, const QByteArray &raw) const
{
    return onValue(raw, [&](const bson_iter_t *value) {
        const int type = bson_iter_type(value);
        if (type == BSON_TYPE_NULL)
            return unchanged(QStringLiteral("null is left as it is"));
        if (typeName(type) == config.targetType)
            return unchanged(QStringLiteral("already %1").arg(config.targetType));
        if (config.targetType == QLatin1String("double"))
            return toDouble(value);
        if (config.targetType == QLatin1String("int") || config.targetType == QLatin1String("long"))
            return toInteger(value, config.targetType == QLatin1String("long"));
        return toText(value);
    });
}

QByteArray ConvertTypeRemedy::scanFilter(const RewriteConfig &config) const
{
    return filterOn(config.path, [&](bson_t *condition) {
        bson_append_bool(condition, "$exists", -1, true);
        bson_t no, types;
        bson_append_document_begin(condition, "$not", -1, &no);
        bson_append_array_begin(&no, "$type", -1, &types);
        bsonraw::appendText(&types, "0", config.targetType);
        bson_append_utf8(&types, "1", -1, "null", -1);
        bson_append_array_end(&no, &types);
        bson_append_document_end(condition, &no);
    });
}

} // namespace oe
