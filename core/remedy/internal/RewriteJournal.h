#pragma once

// Internal to core: a rewrite's journal, <collection>_outlier_rewrites. One run document a
// rewrite ({_id: "run:<kind>:<path>", version, updated, its config, state, writer while it runs,
// documents once applied}) and one entry a document ({_id: {run, doc: <the _id>}, before: {v},
// after: {v}, state}): values are kept whole, as raw BSON, so a rollback puts back the bytes.

#include "mongo/internal/CollectionOps.h"
#include "remedy/RewriteConfig.h"
#include "remedy/RewriteState.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace oe {

class MongoConnection;

struct RewriteEntry
{
    QByteArray id;     // raw _id value
    QByteArray before; // raw values
    QByteArray after;
    RewriteEntryState state = RewriteEntryState::Pending;
};

class RewriteJournal
{
public:
    static constexpr int kVersion = 1;
    // A round of entries holds at most this many bytes of values (big values: fewer a round).
    static constexpr qsizetype kRoundBytes = 64 * 1024 * 1024;
    // Whether an entry for this value fits in one journal document (16 MiB, holding the _id,
    // the value before and after): one that does not is left alone, listed.
    bool fits(const QByteArray &id, const QByteArray &before, const QByteArray &after) const;

    struct Run
    {
        bool present = false;
        RewriteState state = RewriteState::Applying;
        std::optional<QString> writer;
        std::uint64_t documents = 0; // entries the run wrote (once applied)
        RewriteConfig config;        // as recorded
        QString problem;             // a run document this version cannot read
        QDateTime updated;           // the run document's last write (a journal before: none)
    };
    // A run document read: `base` (the collection, kind and path) with the options it records.
    static Run runOf(const QByteArray &runDocument, const RewriteConfig &base);
    // The collection, kind and path a run document names; nullopt for a remedy this version
    // does not have.
    static std::optional<RewriteConfig> baseOf(const QByteArray &runDocument,
                                               const QString &collection);

    RewriteJournal(MongoConnection &connection, const QString &database,
                   const RewriteConfig &config);

    Run readRun(SourceError *error);
    bool writeRun(RewriteState state, std::optional<std::uint64_t> documents,
                  const std::optional<QString> &writer, SourceError *error);
    bool clearEntries(SourceError *error); // a new run after a rollback
    // The run document removed: a fresh run that found nothing, or a rolled-back one forgotten.
    bool forgetRun(SourceError *error);
    // The index an attribute rewrite made ({_id: "index:<run>", name}): the rollback drops it.
    bool writeIndex(const QString &name, SourceError *error);
    std::optional<QString> readIndex(SourceError *error);
    bool clearIndex(SourceError *error);
    bool record(const std::vector<RewriteEntry> &entries, SourceError *error);
    bool mark(const std::vector<RewriteEntry> &entries, SourceError *error);
    // The run's entries in `states`, in _id order, `batch` at a time; `visit` may mark them.
    bool forEach(const std::vector<RewriteEntryState> &states, std::size_t batch,
                 const std::function<bool(std::vector<RewriteEntry> &)> &visit, SourceError *error);
    std::uint64_t count(SourceError *error);
    std::uint64_t countIn(RewriteEntryState state, SourceError *error);

private:
    QByteArray entryFilter(const QByteArray &id) const;

    CollectionOps m_ops;
    RewriteConfig m_config;
    QString m_run;
};

} // namespace oe
