#pragma once

// Internal to core: the rewritten collection as a rewrite reads and writes it: the documents
// holding the field, the value each holds now, and guarded writes that land only where the
// document still holds the value the rewrite read (an application's write in between wins).

#include "mongo/internal/CollectionOps.h"
#include "mongo/internal/ExactMatch.h"
#include "remedy/Remedy.h"
#include "remedy/RewriteConfig.h"
#include "source/SourceError.h"

#include <QByteArray>

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace oe {

class RewriteTarget
{
public:
    // What a document holds at the path: nothing (deleted), or its value (empty: no field).
    using Values = std::map<QByteArray, std::optional<QByteArray>>;
    struct Move
    {
        QByteArray id, from, to; // raw values
    };
    enum class Landed
    {
        Done,         // the document holds `to` (an extraction: or its flag, then another value)
        ChangedSince, // it holds neither: someone else's write won
        // Coming back: an extraction's document holds another value and not its flag, so it
        // refers to no extracted value (the application put its own, or the move never landed).
        ChangedUnflagged,
        Deleted,
        Stuck // it held `from` again after every round (a value changing back and forth)
    };

    // `simpleCollation`: compare strings byte for byte in the guards whatever the collection's
    // default collation (a server without collations, FerretDB, has nothing to set).
    // `exactGuards`: the guards prove a value's bytes, not only its value (ExactMatch: a type-
    // only write, int 5 to long 5, is the application's); a server without the operators
    // (FerretDB) compares by value, and each round reads the values first instead.
    RewriteTarget(MongoConnection &connection, const QString &database, const RewriteConfig &config,
                  bool simpleCollation, bool exactGuards);

    // One document the rewrite may change: its _id and value (raw), and its size in bytes
    // when the scan measures it.
    struct Scanned
    {
        QByteArray id, value;
        std::uint64_t documentBytes = 0;
    };
    // How a scan measures each document: not at all, on the server ($bsonSize, MongoDB 4.4+:
    // only the number travels), or by reading it whole (a server without $bsonSize).
    enum class Sizes
    {
        None,
        Server,
        Whole
    };
    // The documents the rewrite may change, `batch` at a time.
    bool scan(std::size_t batch, const std::atomic<bool> *cancel,
              const std::function<bool(std::vector<Scanned> &)> &visit, SourceError *error,
              Sizes sizes = Sizes::None);
    // An extraction's flag in a document: none, true, or another value (the application's).
    enum class FlagState
    {
        Absent,
        True,
        Other
    };
    // `flagged`: an extraction's flag in each document read (Absent unless listed).
    bool valuesOf(const std::vector<QByteArray> &ids, Values *values, SourceError *error,
                  std::map<QByteArray, FlagState> *flagged = nullptr);
    // Each document to `to` where it holds `from` (retried while it still does), then read
    // back: what each holds decides. The guard names the value and its type, and that it is
    // not an array holding it (an array value: its length), in a simple collation.
    // An extraction's moves also set its flag (forward: where the document has none) or take it
    // away (back: where the document holds it).
    std::vector<Landed> settle(const std::vector<Move> &moves, bool forward, SourceError *error);
    bool exists(SourceError *error) { return m_ops.exists(error); }
    // Tests only: called with the _ids of each guarded write's round just before it is sent.
    void setBeforeWrite(std::function<void(const std::vector<QByteArray> &)> hook)
    {
        m_beforeWrite = std::move(hook);
    }
    const RewriteConfig &config() const { return m_config; }
    // The index the remedy creates ({<array>.k: 1, <array>.v: 1}): made unless there.
    bool ensureIndex(bool *created, SourceError *error);
    bool dropIndex(const QString &name, SourceError *error);
    // What a value's read-back is compared with: a Fields remedy's touched part of a whole
    // document (FieldsDocument::touched); the value itself otherwise.
    QByteArray touched(const QByteArray &value) const;

    static constexpr int kMaxRounds = 5;

private:
    QByteArray scanFilter() const;
    bool write(const std::vector<Move> &moves, bool forward, SourceError *error);
    // A Fields remedy's writes (Remedy::Unit::Fields): its fields out and in, and back.
    bool writeFields(const std::vector<Move> &moves, SourceError *error);
    bool restoreFields(const std::vector<Move> &moves, SourceError *error);
    bool wholeDocuments() const;
    QStringList touchedNames() const;
    QByteArray writeOptions() const;
    static QByteArray wholeGuard(const QByteArray &id, const QByteArray &raw);
    QByteArray partGuard(const Move &move) const;
    // {path: {$eq: from, $type / $size}}: the value as read, not an array holding it; with
    // `exact`, the conditions that prove its bytes too (ExactMatch).
    static void appendGuard(bson_t *filter, const QByteArray &path, const QByteArray &from,
                            ExactMatch *exact);
    // Without exact guards: the moves whose document no longer holds `from` (byte for byte)
    // settled from what it holds, before any write; the others returned to be written.
    std::vector<std::size_t> precheck(const std::vector<Move> &moves,
                                      const std::vector<std::size_t> &open, bool forward,
                                      std::vector<Landed> *landed, SourceError *error);
    Landed landedOf(const Move &move, const std::optional<QByteArray> &now, FlagState flag,
                    bool forward, bool *again) const;
    void guardFlag(bson_t *filter, bool forward) const;
    bool flagMoved(FlagState flag, bool forward) const;
    Landed changed(FlagState flag, bool forward) const;
    QByteArray updateOf(const Move &move, bool forward) const;

    CollectionOps m_ops;
    RewriteConfig m_config;
    const Remedy &m_remedy;
    QByteArray m_flag; // the flag the remedy sets beside a moved value (empty: none)
    bool m_simpleCollation;
    bool m_exactGuards;
    std::function<void(const std::vector<QByteArray> &)> m_beforeWrite;
    bool send(const std::vector<CollectionOps::Write> &writes, const QString &step,
              SourceError *error);
};

} // namespace oe
