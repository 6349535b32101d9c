#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace oe {

// One schema outlier of shape: a field path (or, for the per-document kinds, the documents
// themselves) that differs from the rest, with the figures that say how and a few documents.
struct ShapeFlag
{
    enum class Kind
    {
        RareField,         // present in under ShapeOptions::rareShare of the documents
        MixedTypes,        // a type with under ShapeOptions::mixedShare of the path's values
        MixedElementTypes, // the same, among the elements of the arrays at the path
        KeysAsData,        // an object whose keys are data (folded into path.<key>)
        BigScalar,         // strings or binaries over ShapeOptions::bigScalarBytes
        ManyFields,        // documents with far more fields than the rest
        DeepNesting,       // documents nested far deeper than the rest
        SparseFields       // many rare top-level fields of few types: the attribute pattern's case
    };
    struct Example
    {
        std::string rawId; // DocumentId's form; empty when the document had none before
        std::uint64_t docIndex = 0;
    };

    // The schema version whose documents a flag is about (SchemaVersions::flags).
    struct Version
    {
        std::string field; // the top-level version field, UTF-8
        std::string raw;   // its value, DocumentId's raw form; empty: the documents without one
        QString label;     // "schema_version 2", "schema_version (none)"
        // The documents without one: the values the versions have (raw), so that a value no
        // version has (an object, a long string) is among them too, as the walk counted it.
        std::vector<std::string> versionValues;
    };

    Kind kind = Kind::RareField;
    std::string path;        // UTF-8; empty for ManyFields and DeepNesting
    QString type;            // the minority type's name (MixedTypes, MixedElementTypes), else empty
    std::uint64_t count = 0; // documents, values or keys, as `total` counts
    std::uint64_t total = 0;
    QString detail;             // one line, the figures in words
    std::uint64_t siblings = 0; // RareField: more rare fields beside it in the same documents
    std::vector<Example> examples;
    std::optional<Version> version;   // set for a flag of one version's documents
    std::vector<std::string> members; // SparseFields: the family's fields, most present first
    // A flag of the whole collection that no version has on its own (a field of one version, a
    // type that changed between versions): not a defect; says how the versions differ.
    QString explainedBy;
    // Who explains it: the versions, or a sparse family the flag's field belongs to.
    enum class Explainer : std::uint8_t
    {
        None,
        Versions,
        SparseFamily
    };
    Explainer explainer = Explainer::None;

    // A flag's header: what, where, and how many of how many (the detail and examples follow).
    static ShapeFlag of(Kind kind, std::string path, std::uint64_t count, std::uint64_t total)
    {
        ShapeFlag flag;
        flag.kind = kind;
        flag.path = std::move(path);
        flag.count = count;
        flag.total = total;
        return flag;
    }
    double share() const { return total ? double(count) / double(total) : 0.0; }
    // Rare fields and mixed types: the kinds a schema version can explain.
    bool isFieldKind() const
    {
        return kind == Kind::RareField || kind == Kind::MixedTypes ||
               kind == Kind::MixedElementTypes;
    }
    // shape_outliers.csv's kind column: rare_field, mixed_types, ...
    static QString kindName(Kind kind);
};

} // namespace oe
