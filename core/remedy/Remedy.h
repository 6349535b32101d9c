#pragma once

#include "remedy/RewriteConfig.h"
#include "remedy/ValueRewriter.h"
#include "shape/ShapeFlag.h"

#include <QByteArray>
#include <QFlags>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace oe {

struct FieldProfile;
class MongoConnection;
class SideStore;

// One cure for an outlier, applied in place by the journaled rewrite engine (RewriteSession):
// what it cures, its options, what it makes of each value, how the engine reads and writes it.
// Each remedy lives in its own folder of core/remedy and is listed once in RemedyRegistry; the
// engine, the dialogs, the wizard and the CLI ask the registry and never name a remedy.
//
// A remedy rewrites one of two units:
// - Value: the value at the config's path (through sub-documents), rewritten in place with a
//   guarded $set (keys to an array, a conversion, an extraction, GridFS);
// - Fields: top-level fields of the document, read whole: the fields it moves out are unset,
//   the fields it makes are set, and the rollback puts the document back as it was, in its
//   order (the attribute pattern, a rename). Its value is the whole document (raw, a
//   sub-document's type byte first); what guards and read-backs compare is the touched part.
class Remedy
{
public:
    // What the remedy's options panel shows (the dialog and the wizard), and the CLI reads.
    enum class Option
    {
        KeyValueNames = 0x1,  // the element's key and value fields (k, v)
        TargetType = 0x2,     // the type values convert to
        MinBytes = 0x4,       // the smallest value moved
        SideCollection = 0x8, // the side collection, its flag and the excerpt kept
        Bucket = 0x10,        // a GridFS bucket, and whether strings go too
        Fields = 0x20,        // the top-level fields moved (a sparse family)
        NewName = 0x40        // a field's new name
    };
    Q_DECLARE_FLAGS(Options, Option)
    enum class Unit
    {
        Value,
        Fields
    };
    // One field's remedies are interchangeable in the dialog; a family's (the sparse fields')
    // stand apart.
    enum class Scope
    {
        OneField,
        FieldFamily
    };

    virtual ~Remedy() = default;

    virtual RewriteKind kind() const = 0;
    // The journal's word ("keys_to_array", "extract", "rename"): part of every run's id.
    virtual QString name() const = 0;
    // The CLI: `rewrite --<cliOption>` (with a value named cliValueName, when it takes one).
    virtual QString cliOption() const = 0;
    virtual QString cliValueName() const { return {}; }
    virtual QString cliHelp() const = 0;
    // The dialog's choice: "Extract to a side collection (the subset pattern)".
    virtual QString label() const = 0;
    // The wizard's choice for one outlier, with the names it uses.
    virtual QString offer(const RewriteConfig &config) const = 0;
    // The wizard's name of the cure: "Extract to a side collection".
    virtual QString cureName() const = 0;
    virtual Options options() const { return {}; }
    virtual Unit unit() const { return Unit::Value; }
    virtual Scope scope() const { return Scope::OneField; }
    // The shape flags this remedy cures (the wizard offers them, the first suggests).
    virtual std::vector<ShapeFlag::Kind> cures() const { return {}; }
    // The rewrite this remedy suggests for a flag it cures; nullopt where it cannot. By
    // default: one of its kind (moving the values the flag calls big, with a MinBytes option).
    virtual std::optional<RewriteConfig> suggest(const ShapeFlag &flag, const FieldProfile &field,
                                                 const QString &collection,
                                                 qint64 bigScalarBytes) const;
    // Names the CLI and the dialog leave empty given their default ("attrs").
    virtual void fillDefaults(RewriteConfig *) const {}
    // The CLI option's value (cliValueName) put where it belongs: the type, the new name.
    virtual void takeCliValue(RewriteConfig *, const QString &) const {}

    // The remedy's own part of RewriteConfig::problem(): empty when usable.
    virtual QString problem(const RewriteConfig &) const { return {}; }
    // "body: extracted to posts_body_full".
    virtual QString describe(const RewriteConfig &config) const = 0;
    // What the scan reads, for the preview's line: "an object", "a binary".
    virtual QString subject(const RewriteConfig &config) const = 0;
    // What apply does beyond the values, the CLI's preview line ("each value moves to ...",
    // "index suggestion: ..."), and the window's sentence ("Each value moves to ...").
    virtual QString consequence(const RewriteConfig &) const { return {}; }
    virtual QString windowNote(const RewriteConfig &) const { return {}; }
    // An index the rewritten field wants ("{\"metrics.k\": 1}"), or empty.
    virtual QString indexSuggestion(const RewriteConfig &) const { return {}; }
    // Whether apply creates that index (and rollback drops it), rather than suggest it.
    virtual bool createsIndex() const { return false; }

    // What the rewrite makes of one value (the unit's value: see above).
    virtual RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw) const = 0;
    // Whether a journal's after is the rewrite's of its before, given the after recomputed.
    virtual bool sameAfter(const QByteArray &recomputed, const QByteArray &journaled) const
    {
        return recomputed == journaled;
    }
    // The find filter of the documents the rewrite may change (BSON bytes).
    virtual QByteArray scanFilter(const RewriteConfig &config) const = 0;
    // A flag the rewrite sets at the top level beside each value it moves (empty: none).
    virtual QString flagField(const RewriteConfig &) const { return {}; }
    // Where the moved values go (an extraction's side collection, a GridFS bucket), or none.
    virtual std::unique_ptr<SideStore> sideStore(MongoConnection &connection,
                                                 const QString &database,
                                                 const RewriteConfig &config) const;
    // That store in words: "the side collection posts_body_full", "the GridFS bucket fs".
    virtual QString storeName(const RewriteConfig &) const { return {}; }
    // A Fields remedy's top-level names: those it moves out (and puts back on rollback), and
    // those it makes.
    virtual QStringList movedFields(const RewriteConfig &) const { return {}; }
    virtual QStringList madeFields(const RewriteConfig &) const { return {}; }
};

Q_DECLARE_OPERATORS_FOR_FLAGS(Remedy::Options)

} // namespace oe
