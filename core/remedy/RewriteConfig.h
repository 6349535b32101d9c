#pragma once

#include "codegen/AttributeLayout.h"
#include "codegen/ExtractLayout.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace oe {

struct FieldProfile;
struct ShapeFlag;

// What an in-place rewrite does to one field of every document that has it: the remedy
// (RemedyRegistry::of names it, and core/remedy/<its folder> holds what it does).
enum class RewriteKind
{
    KeysToArray, // the attribute pattern: {a: 1, b: 2} -> [{k: "a", v: 1}, {k: "b", v: 2}]
    ConvertType, // a mixed-type field to one type: "12.50" -> 12.5 (what cannot be, is not)
    Extract,     // the subset pattern: a big string, binary or sub-document moved to a side
                 // collection ({_id: the parent's _id, <leaf>: the value}); the document keeps
                 // an excerpt of the same type in its place and a flag
    GridFs,      // a big binary (a string, when asked) moved to a GridFS bucket's file; the
                 // document keeps the file's _id (an ObjectId) in its place
    Attributes,  // the attribute pattern for sparse top-level fields: the chosen fields move into
                 // one array at `path`, [{k: "voltage", v: 12}, ...] in the document's order
    Rename       // a top-level field renamed: `path` to `newName`
};

// One in-place rewrite of a field (core's RewriteSession applies, verifies and rolls it back,
// journaled in <collection>_outlier_rewrites). The path names sub-documents only: a field
// inside an array's elements is many values per document, which this does not rewrite.
struct RewriteConfig
{
    QString collection;
    RewriteKind kind{}; // the registry's first remedy
    QString path;       // dot notation
    QString targetType; // ConvertType: double, int, long or string
    QString keyName = QStringLiteral("k");
    QString valueName = QStringLiteral("v");
    // Extract: where the values go (empty: "<collection>_<path, '.' as '_'>_full"), the flag
    // set beside each moved value's document at the top level (empty: "has_full_<path, '_'>"),
    // the smallest value moved (its BSON bytes; 0: every string, binary and sub-document), and
    // the excerpt kept: a string's first characters, a sub-document's named keys (a binary
    // keeps an empty binary of its subtype).
    QString sideCollection;
    QString flagField;
    qint64 minBytes = 0;
    int excerptChars = 0;
    QStringList excerptKeys;
    // GridFs: the bucket (fs: fs.files and fs.chunks) and whether strings go too (as UTF-8).
    QString bucket = QStringLiteral("fs");
    bool gridfsStrings = false;
    // Attributes: the top-level fields moved into the array (path: the array's name, "attrs").
    QStringList fields;
    // Rename: the field's new name (a plain top-level name).
    QString newName;

    QString side() const;     // sideCollection, or its default
    QString flag() const;     // flagField, or its default
    QString sideLeaf() const; // the value's field in a side document: the path's last name
    // An extraction's names, resolved: what its generated read and write paths need.
    ExtractLayout extractLayout() const;
    // An attribute rewrite's names: what its generated code needs.
    AttributeLayout attributeLayout() const { return {collection, path, keyName, valueName}; }
    // Where the values go, in words: "the side collection posts_body_full", "the GridFS
    // bucket fs".
    QString storeName() const;

    // The journal's name for this rewrite: "keys_to_array:<path>", "convert:<path>",
    // "extract:<path>".
    QString runId() const;
    QString journalCollection() const { return collection + journalSuffix(); }
    static QString journalSuffix() { return QStringLiteral("_outlier_rewrites"); }
    static bool isJournal(const QString &collectionName)
    {
        return collectionName.endsWith(journalSuffix());
    }
    // One line naming what is wrong (the path, the type, the names), empty when usable.
    QString problem() const;
    // Attributes: what is wrong with the array's name and its elements' names alone (the
    // generated code's names), empty when usable.
    QString attributeArrayProblem() const;
    // "metrics: keys to an array of {k, v}", "price: to double",
    // "body: extracted to posts_body_full".
    QString describe() const;
    // KeysToArray: the index the array's keys want, "{\"metrics.k\": 1}"; Attributes: the
    // index it creates, "{\"attrs.k\": 1, \"attrs.v\": 1}"; else empty.
    QString indexSuggestion() const;
    static QStringList convertibleTypes(); // double, int, long, string
    // The rewrite a shape flag suggests: keys used as data to an array; a mixed type converted
    // to the first convertible type the rest of its values hold; a big scalar extracted; a rare
    // top-level field renamed (ToComplete only: the new name is the user's). nullopt
    // for any other flag, or a path a rewrite cannot name. A big scalar: extracted where it holds
    // at least `bigScalarBytes` (the flag's threshold).
    // `ToComplete`: also a rewrite that needs the user's word before it can run (a rare
    // field's rename: the new name), for a dialog that asks for it.
    enum class Suggestion
    {
        Ready,
        ToComplete
    };
    static std::optional<RewriteConfig>
    forShapeFlag(const ShapeFlag &flag, const FieldProfile &field, const QString &collection,
                 qint64 bigScalarBytes = 0, Suggestion suggestion = Suggestion::Ready);
    // The attribute remedy a sparse family suggests: its members a plain name can address
    // (no '.', no '$' first, not _id) moved into "attrs" (or "attributes", "attrs_", ... when
    // a member holds that name). nullopt for another flag, or no member left.
    static std::optional<RewriteConfig> forSparseFamily(const ShapeFlag &flag,
                                                        const QString &collection);
    // The index an attribute rewrite creates: {<path>.<k>: 1, <path>.<v>: 1}, and its name.
    QStringList indexKeys() const;

    bool operator==(const RewriteConfig &) const = default;
    // The same rewrite by what it means: equal but for the order the fields are named in (an
    // attribute rewrite moves a set of fields; each document keeps its own order).
    bool sameRewrite(const RewriteConfig &other) const;
};

// The remedy's journal word: "keys_to_array", "convert", "extract", "gridfs", "attributes",
// "rename".
QString rewriteKindName(RewriteKind kind);

} // namespace oe
