#pragma once

#include <string_view>

namespace oe {

// The field-path segments that are not field names: each stands for many keys or elements.
struct PathSegment
{
    // Every key of an object whose keys are data (DataKeyFolder): daily_stats.<key>.views.
    static constexpr std::string_view kDataKey = "<key>";
    // The keys of a sub-document past the builder's cap of distinct keys: scores.*.
    static constexpr std::string_view kOtherKeys = "*";
    // An array directly inside an array (MongoDB's all-positional operator): grid.$[].
    static constexpr std::string_view kNestedArray = "$[]";

    static constexpr bool standsForManyKeys(std::string_view segment)
    {
        return segment == kDataKey || segment == kOtherKeys;
    }
    // Whether a dotted path passes through a segment that stands for many keys: no one path
    // names what is under it.
    static constexpr bool throughManyKeys(std::string_view path)
    {
        while (true) {
            const std::size_t dot = path.find('.');
            if (standsForManyKeys(path.substr(0, dot)))
                return true;
            if (dot == std::string_view::npos)
                return false;
            path.remove_prefix(dot + 1);
        }
    }
};

} // namespace oe
