#pragma once

#include "mongo/ConnectionSettings.h"
#include "remedy/RewriteConfig.h"
#include "remedy/RewriteReport.h"

#include <atomic>
#include <functional>
#include <memory>

namespace oe {

class MongoConnection;

// An in-place rewrite of one field of a live collection (keys used as data to an array of
// {k, v}; a mixed-type field converted where that is exact), as the CLI's `rewrite` drives it:
// one typed session, blocking (run it off the UI thread), cancelled between batches.
// - preview() reads every document with the field and says what the rewrite would make of
//   each: every change (before -> after) and every value it cannot rewrite, to `onRow`.
// - apply() journals each value before writing it (<collection>_outlier_rewrites: the value
//   whole, before and after), writes with a guarded update that lands only where the document
//   still holds what was read, and reads it back: an application's write in between wins and is
//   counted, never overwritten. Killed (kill -9), it resumes: the entries left pending are
//   settled first (written, or found written, or found changed).
// - verify() recomputes each entry's after from its before and reads each document.
// - rollback() puts each before back where the document still holds the after (byte for
//   byte: the field keeps its place); a value the application rewrote since is kept, listed.
// FerretDB (and so DocumentDB, Cosmos DB) applies the updates without atomicity: said in notes.
class RewriteSession
{
public:
    RewriteSession(ConnectionSettings settings, QString database, RewriteConfig config);
    ~RewriteSession();
    RewriteSession(const RewriteSession &) = delete;
    RewriteSession &operator=(const RewriteSession &) = delete;

    const RewriteConfig &config() const { return m_config; }

    RewriteStep preview(const std::function<void(const RewriteRow &)> &onRow = {},
                        const std::atomic<bool> *cancel = nullptr);
    RewriteStep apply(const RewriteOptions &options, const std::atomic<bool> *cancel = nullptr,
                      const RewriteProgressCallback &callback = {});
    RewriteStep verify();
    RewriteStep rollback(const RewriteOptions &options, const std::atomic<bool> *cancel = nullptr,
                         const RewriteProgressCallback &callback = {});
    // A rolled-back run removed from the journal (its run, entries and index record), and its
    // side collection where it is empty; what stays is said in the notes. Refused for a run
    // that is not rolled back.
    RewriteStep forget();

    static constexpr std::size_t kListedRows = 1000;

private:
    void adoptInterrupted();
    bool connect(RewriteStep *step);

    ConnectionSettings m_settings;
    QString m_database;
    RewriteConfig m_config;
    QString m_writer; // this run's application name (RunFence), empty when the URI names one
    bool m_ferretDb = false;
    bool m_bsonSize = false; // the server sizes documents itself ($bsonSize)
    // The guards prove bytes, not only values (MongoDB 4.4+'s operators; not FerretDB's).
    bool m_exactGuards = false;
    std::unique_ptr<MongoConnection> m_connection;
};

} // namespace oe
