#include "bson/KeyPattern.h"

#include <algorithm>

namespace oe {

namespace {

bool digit(char c)
{
    return c >= '0' && c <= '9';
}
bool hex(char c)
{
    return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool allOf(std::string_view s, bool (*test)(char))
{
    return !s.empty() && std::all_of(s.begin(), s.end(), test);
}

bool number(std::string_view k)
{
    if (!k.empty() && k.front() == '-')
        k.remove_prefix(1);
    const auto dot = k.find('.');
    if (dot == std::string_view::npos)
        return allOf(k, digit);
    return allOf(k.substr(0, dot), digit) && allOf(k.substr(dot + 1), digit);
}

// YYYY-MM, YYYY-MM-DD (an ISO time may follow: T or a space, then anything), YYYYMMDD.
bool date(std::string_view k)
{
    auto month = [](std::string_view m) { return m >= "01" && m <= "12"; };
    if (k.size() == 8 && allOf(k, digit))
        return k.substr(0, 2) >= "19" && k.substr(0, 2) <= "21" && month(k.substr(4, 2)) &&
               k.substr(6, 2) >= "01" && k.substr(6, 2) <= "31";
    if (k.size() < 7 || !allOf(k.substr(0, 4), digit) || k[4] != '-' ||
        !allOf(k.substr(5, 2), digit) || !month(k.substr(5, 2)))
        return false;
    if (k.size() == 7)
        return true;
    if (k.size() < 10 || k[7] != '-' || !allOf(k.substr(8, 2), digit))
        return false;
    return k.size() == 10 || k[10] == 'T' || k[10] == ' ' || k[10] == '_';
}

bool uuid(std::string_view k)
{
    if (k.size() == 32)
        return allOf(k, hex);
    if (k.size() != 36)
        return false;
    for (std::size_t i = 0; i < k.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? k[i] != '-' : !hex(k[i]))
            return false;
    }
    return true;
}

} // namespace

KeyPattern::Kind KeyPattern::classify(std::string_view key)
{
    if (date(key))
        return Kind::Date;
    if (number(key))
        return Kind::Number;
    if (key.size() == 24 && allOf(key, hex))
        return Kind::ObjectId;
    if (uuid(key))
        return Kind::Uuid;
    return Kind::Name;
}

} // namespace oe
