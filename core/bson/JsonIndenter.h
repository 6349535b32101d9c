#pragma once

#include <string>

namespace oe {

// Lays out JSON text that a serializer (libbson) already produced: indented (one member per
// line, two spaces per level) or compact (no white space outside strings); string contents
// untouched. It reformats, it does not parse: the input is trusted to be valid JSON. Linear
// time, so a 15 MB document's text stays fast.
class JsonIndenter
{
public:
    static std::string indent(const char *json, std::size_t length);
    static std::string compact(const char *json, std::size_t length);
};

} // namespace oe
