#include "bson/JsonIndenter.h"

namespace oe {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

// Copies the string literal whose opening quote is at `i`; returns the index of its closing
// quote (or the end).
std::size_t copyString(const char *json, std::size_t length, std::size_t i, std::string &out)
{
    out.push_back(json[i]);
    bool escaped = false;
    for (++i; i < length; ++i) {
        const char c = json[i];
        out.push_back(c);
        if (escaped)
            escaped = false;
        else if (c == '\\')
            escaped = true;
        else if (c == '"')
            return i;
    }
    return length;
}

} // namespace

std::string JsonIndenter::compact(const char *json, std::size_t length)
{
    std::string out;
    out.reserve(length);
    for (std::size_t i = 0; i < length; ++i) {
        if (json[i] == '"')
            i = copyString(json, length, i, out);
        else if (!isBlank(json[i]))
            out.push_back(json[i]);
    }
    return out;
}

std::string JsonIndenter::indent(const char *json, std::size_t length)
{
    std::string out;
    out.reserve(length + length / 4);
    int depth = 0;
    auto newline = [&] {
        out.push_back('\n');
        out.append(std::size_t(depth) * 2, ' ');
    };
    for (std::size_t i = 0; i < length; ++i) {
        const char c = json[i];
        switch (c) {
        case '"':
            i = copyString(json, length, i, out);
            break;
        case '{':
        case '[': {
            // Empty containers stay on one line: "{}" and "[]".
            std::size_t j = i + 1;
            while (j < length && isBlank(json[j]))
                ++j;
            if (j < length && (json[j] == '}' || json[j] == ']')) {
                out.push_back(c);
                out.push_back(json[j]);
                i = j;
                break;
            }
            out.push_back(c);
            ++depth;
            newline();
            break;
        }
        case '}':
        case ']':
            --depth;
            newline();
            out.push_back(c);
            break;
        case ',':
            out.push_back(c);
            newline();
            break;
        case ':':
            out.append(": ");
            break;
        default:
            if (!isBlank(c))
                out.push_back(c);
        }
    }
    return out;
}

} // namespace oe
