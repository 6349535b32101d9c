#include "JsonIndenter.h"

namespace oe {

std::string JsonIndenter::indent(const char *json, std::size_t length)
{
    std::string out;
    out.reserve(length + length / 4);
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    auto newline = [&] {
        out.push_back('\n');
        out.append(std::size_t(depth) * 2, ' ');
    };
    for (std::size_t i = 0; i < length; ++i) {
        const char c = json[i];
        if (inString) {
            out.push_back(c);
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            out.push_back(c);
            break;
        case '{':
        case '[': {
            // Empty containers stay on one line: "{}" and "[]".
            std::size_t j = i + 1;
            while (j < length && (json[j] == ' ' || json[j] == '\n' || json[j] == '\t'))
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
        case ' ':
        case '\n':
        case '\t':
        case '\r':
            break;
        default:
            out.push_back(c);
        }
    }
    return out;
}

} // namespace oe
