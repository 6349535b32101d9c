#pragma once

#include "analysis/FieldShape.h"
#include "analysis/TypeCounts.h"
#include "stats/Distribution.h"

#include <cstdint>
#include <string>
#include <vector>

namespace oe {

struct CollectionProfile;

// What a walk counted per schema version (the Schema Versioning pattern): for each top-level
// field that may hold a version (VersionTally::knownNames, or one the user named), the documents
// of each of its values, and per field path how many of them hold the path and with which
// types. ShapeDetector (VersionDetector) picks the version field from these and reports the
// shape per version. A value type; parts of a parallel or resumed scan absorb exactly.
struct VersionTally
{
    // At most this many distinct values per field: past it the field is not a version field
    // (a counter, a revision number) and its groups are dropped.
    static constexpr std::size_t kMaxValues = 12;
    // Values are versions when they are numbers or strings up to this many bytes ("v2", "1.4").
    static constexpr std::uint32_t kMaxStringBytes = 32;

    struct Path
    {
        std::string path; // UTF-8, as FieldProfile's (folded like it: DataKeyFolder)
        std::uint64_t presentDocuments = 0;
        TypeCounts types;
        TypeCounts elementTypes;
        std::vector<ShapeExample> examples; // FieldShape's slots, the earliest documents
    };
    struct Group
    {
        std::string raw; // the value, in DocumentId's raw form (type byte + value bytes)
        std::uint64_t documents = 0;
        std::vector<Path> paths; // sorted by path
        // Its documents' fields and depth (DocumentShape's measures), for the per-document flags.
        Distribution fieldCounts;
        Distribution depths;
    };
    struct Field
    {
        std::string name;           // a top-level field name, UTF-8
        std::uint64_t watched = 0;  // documents the walk looked for it in
        std::uint64_t present = 0;  // documents that have it
        std::uint64_t unfit = 0;    // of those, values no version has (objects, long strings)
        bool tooManyValues = false; // more than kMaxValues distinct values: groups dropped
        std::vector<Group> groups;  // by raw value
        // The documents without a version value here: their fields and depth (no paths: the
        // whole collection's less the groups' give those).
        Distribution restFieldCounts;
        Distribution restDepths;
        const Group *group(const std::string &raw) const;
    };

    std::vector<Field> fields; // by name

    // The names looked for unless the user names another: `__v` is absent on purpose (Mongoose's
    // revision counter, not a schema version).
    static std::vector<std::string> knownNames();
    const Field *field(const std::string &name) const;
    // Adds what `other` counted in other documents (fields by name, groups by value, paths by
    // path); a field past kMaxValues in either part is past it in the sum.
    void absorb(VersionTally &&other);
    // Renames the paths below objects whose keys are data as DataKeyFolder did in `profile`
    // (a.<key>.b), adding up what lands on one path (its presence capped at the object's).
    void foldLike(const CollectionProfile &profile);
    // Gives every example document a new index (CollectionProfile::renumberDocuments).
    template <typename Renumber> void renumberDocuments(Renumber &&renumber)
    {
        for (Field &f : fields)
            for (Group &g : f.groups)
                for (Path &p : g.paths)
                    for (ShapeExample &e : p.examples)
                        e.docIndex = renumber(e.docIndex);
    }
    bool empty() const { return fields.empty(); }
};

} // namespace oe
