#include "remedy/RewriteSession.h"

#include "bson/BsonTypes.h"
#include "migration/RunFence.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerInfo.h"
#include "mongo/ServerProbe.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/ValueRewriter.h"
#include "remedy/internal/RewriteJournal.h"
#include "remedy/internal/RewriteSteps.h"
#include "remedy/internal/RewriteTarget.h"
#include "source/DocumentPace.h"

#include <QElapsedTimer>

namespace oe {

namespace {

using rewritesteps::list;
using rewritesteps::rowOf;
using rewritesteps::settleEntries;
using rewritesteps::verifyEntry;

SourceError usage(const QString &message)
{
    SourceError error;
    error.kind = SourceError::Kind::Usage;
    error.message = message;
    return error;
}

// Waits for an interrupted run of this rewrite to be gone from the server (RunFence), so its
// last writes cannot land after ours.
bool fenceOff(MongoConnection &connection, const RewriteJournal::Run &run,
              const std::atomic<bool> *cancel, const RewriteProgressCallback &callback,
              RewriteProgress *progress, SourceError *error)
{
    if (!run.writer)
        return true;
    return RunFence::waitForInterrupted(
        connection, *run.writer, cancel,
        [&](const QString &what) {
            progress->notes << what;
            if (callback)
                callback(*progress);
        },
        error);
}

// A new extraction's side collection holds nothing: never mixed with other data (or with
// values an earlier rollback kept there because the application had rewritten their field).
bool sideIsFree(SideStore *side, RewriteStep *step)
{
    return !side || side->isFree(&step->error);
}

// The journal's run checked and marked applying: a fresh run, or an interrupted one resumed
// (the same rewrite only); refused after an apply (verify or roll back) and mid-rollback.
bool startApply(MongoConnection &connection, RewriteJournal &journal, SideStore *side,
                const RewriteConfig &config, const QString &writer, const std::atomic<bool> *cancel,
                const RewriteProgressCallback &callback, RewriteStep *step, bool *freshRun)
{
    const RewriteJournal::Run run = journal.readRun(&step->error);
    if (step->error.isError())
        return false;
    if (!run.problem.isEmpty()) {
        step->error = usage(run.problem);
        return false;
    }
    if (run.present) {
        switch (run.state) {
        case RewriteState::Applied:
            step->error = usage(QStringLiteral("%1 is applied already: verify it, or roll it "
                                               "back")
                                    .arg(config.describe()));
            return false;
        case RewriteState::RollingBack:
            step->error = usage(QStringLiteral("a rollback of %1 was interrupted: run the "
                                               "rollback again first")
                                    .arg(config.describe()));
            return false;
        case RewriteState::Applying:
            if (!run.config.sameRewrite(config)) {
                step->error = usage(QStringLiteral("an interrupted %1 is in the journal: apply "
                                                   "it again as it was, or roll it back")
                                        .arg(run.config.describe()));
                return false;
            }
            // The interrupted run gone first: a run still writing is not interrupted, and two
            // runs would each take the other's journal entries back to pending.
            step->progress.notes << QStringLiteral("resuming an interrupted rewrite");
            if (!fenceOff(connection, run, cancel, callback, &step->progress, &step->error))
                return false;
            break;
        case RewriteState::RolledBack:
            break;
        }
    }
    // A run rolled back before leaves its journal until the side store is found free: the
    // entries it kept say which values there the application's documents still point to.
    const bool fresh = !run.present || run.state == RewriteState::RolledBack;
    *freshRun = fresh;
    if (fresh && !sideIsFree(side, step))
        return false;
    if (run.present && run.state == RewriteState::RolledBack && !journal.clearEntries(&step->error))
        return false;
    return journal.writeRun(RewriteState::Applying, std::nullopt,
                            writer.isEmpty() ? std::nullopt : std::optional<QString>(writer),
                            &step->error);
}

// The rewrite of the value a document holds at the path; a document with none there (the path
// passes through an array in it) cannot be rewritten.
RewriteResult rewriteAt(const RewriteConfig &config, const QByteArray &value)
{
    if (value.isEmpty())
        return {RewriteResult::Outcome::Cannot,
                {},
                QStringLiteral("no one value at %1: the path passes through an array here")
                    .arg(config.path)};
    return ValueRewriter::rewrite(config, value);
}

// One round of the scan: each value rewritten, journaled (pending), written where the
// document still holds it, and read back.
bool applyRound(const std::vector<RewriteTarget::Scanned> &values, const RewriteConfig &config,
                const RewriteOptions &options, RewriteTarget &target, RewriteJournal &journal,
                SideStore *side, RewriteStep *step)
{
    RewriteProgress &progress = step->progress;
    std::vector<RewriteEntry> entries;
    std::vector<QByteArray> ids;
    for (const auto &[id, value, size] : values) {
        ++progress.examined;
        const RewriteResult r = rewriteAt(config, value);
        if (r.outcome == RewriteResult::Outcome::Unchanged) {
            ++progress.unchanged;
            continue;
        }
        const bool tooLarge = !journal.fits(id, value, r.after);
        if (r.outcome == RewriteResult::Outcome::Cannot || tooLarge) {
            ++progress.cannot;
            list(&progress.rows,
                 rowOf(RewriteRow::Kind::Cannot, id, target.touched(value), {},
                       tooLarge ? QStringLiteral("too large to journal (%1 bytes before and "
                                                 "after): left as it is")
                                      .arg(value.size() + r.after.size())
                                : r.why));
            continue;
        }
        entries.push_back({id, value, r.after, RewriteEntryState::Pending});
        ids.push_back(id);
    }
    if (entries.empty())
        return true;
    if (!journal.record(entries, &step->error))
        return false;
    if (options.beforeWrite)
        options.beforeWrite(ids);
    return settleEntries(target, journal, side, entries, true, &progress, &step->error);
}
// An extraction's side collection (none for the other rewrites).
std::unique_ptr<SideStore> sideOf(MongoConnection &connection, const QString &database,
                                  const RewriteConfig &config)
{
    return RemedyRegistry::of(config.kind).sideStore(connection, database, config);
}

// An attribute rewrite's index on its array's keys and values, made once the fields are moved
// (the one the user has on the same keys is theirs, and stays); recorded when this run made it.
bool indexAttributes(RewriteTarget &target, RewriteJournal &journal, RewriteStep *step)
{
    if (!RemedyRegistry::of(target.config().kind).createsIndex())
        return true;
    bool created = false;
    if (!target.ensureIndex(&created, &step->error))
        return false;
    const QString name = CollectionOps::indexName(target.config().indexKeys());
    step->progress.notes << (created ? QStringLiteral("index %1 created: %2")
                                           .arg(name, target.config().indexSuggestion())
                                     : QStringLiteral("an index on %1 is there already: kept")
                                           .arg(target.config().indexSuggestion()));
    return !created || journal.writeIndex(name, &step->error);
}

// The index the apply made, dropped once every document has its fields back.
bool dropAttributeIndex(RewriteTarget &target, RewriteJournal &journal, RewriteStep *step)
{
    if (!RemedyRegistry::of(target.config().kind).createsIndex())
        return true;
    const std::optional<QString> name = journal.readIndex(&step->error);
    if (step->error.isError())
        return false;
    if (!name)
        return true;
    if (!target.dropIndex(*name, &step->error) || !journal.clearIndex(&step->error))
        return false;
    step->progress.notes << QStringLiteral("index %1 the rewrite made: dropped").arg(*name);
    return true;
}

// The journal's run of `config` where it is in `wanted`; else nullopt with `error` set: no run,
// one this version cannot read, or `why` (%1: the run, %2: its state).
std::optional<RewriteJournal::Run> runIn(RewriteJournal &journal, const RewriteConfig &config,
                                         RewriteState wanted, const QString &why,
                                         SourceError *error)
{
    RewriteJournal::Run run = journal.readRun(error);
    if (error->isError())
        return std::nullopt;
    if (run.present && run.problem.isEmpty() && run.state == wanted)
        return run;
    *error = usage(!run.present ? QStringLiteral("the journal holds no %1").arg(config.describe())
                   : !run.problem.isEmpty() ? run.problem
                                            : why.arg(run.config.describe(),
                                                      QString::fromLatin1(journalWord(run.state))));
    return std::nullopt;
}

// What a finished rollback leaves behind, said: the journal's run (which --forget removes) and
// the values the store keeps for documents the application rewrote after the rewrite.
QStringList leftovers(const RewriteConfig &config, SideStore *side, SourceError *error)
{
    QStringList notes{QStringLiteral("the journal %1 keeps this run, rolled back, and its "
                                     "entries: `rewrite … --forget` removes them")
                          .arg(config.journalCollection())};
    if (!side)
        return notes;
    const std::int64_t held = side->held(error);
    if (held > 0)
        notes << QStringLiteral("%1 keeps %2 values of documents the application rewrote after "
                                "the rewrite")
                     .arg(config.storeName())
                     .arg(held);
    else if (held == 0 && side->dropsWhenEmpty())
        notes << QStringLiteral("%1 is empty: --forget drops it").arg(config.storeName());
    return notes;
}

} // namespace

RewriteSession::RewriteSession(ConnectionSettings settings, QString database, RewriteConfig config)
    : m_settings(std::move(settings)), m_database(std::move(database)), m_config(std::move(config))
{
}

RewriteSession::~RewriteSession() = default;

bool RewriteSession::connect(RewriteStep *step)
{
    if (const QString problem = m_config.problem(); !problem.isEmpty()) {
        step->error = usage(problem);
        return false;
    }
    if (!m_connection) {
        ConnectionSettings settings = m_settings;
        settings.appName = RunFence::writerName(settings.appName);
        m_connection = MongoConnection::open(settings, &step->error);
        if (!m_connection)
            return false;
        m_writer = m_connection->appName() == settings.appName ? settings.appName : QString();
    }
    ServerInfo info;
    SourceError ignored;
    const bool probed = ServerProbe::probe(*m_connection, m_database, &info, &ignored);
    m_ferretDb = probed && info.isFerretDb;
    m_bsonSize = probed && info.supportsBsonSize;
    m_exactGuards = m_bsonSize && !m_ferretDb;
    if (m_ferretDb)
        step->progress.notes << QStringLiteral(
            "FerretDB applies an update without atomicity: an application writing the same "
            "field at the same moment may see its write lost; stop its writes while this runs");
    if (!m_exactGuards)
        step->progress.notes << QStringLiteral(
            "this server's guards compare numbers by value (int 5 = long 5 = 5.0): each round "
            "reads the values first and leaves a document whose bytes changed, but a write "
            "that only changes a number's type between that read and the update is not seen");
    RewriteTarget target(*m_connection, m_database, m_config, !m_ferretDb, m_exactGuards);
    const bool exists = target.exists(&step->error);
    if (!exists && !step->error.isError())
        step->error =
            usage(QStringLiteral("%1.%2: no such collection").arg(m_database, m_config.collection));
    return exists;
}

RewriteStep RewriteSession::preview(const std::function<void(const RewriteRow &)> &onRow,
                                    const std::atomic<bool> *cancel)
{
    RewriteStep step;
    if (!connect(&step))
        return step;
    RewritePreview &preview = step.preview;
    preview.notes = step.progress.notes;
    {
        SourceError ignored; // a journal that cannot be read is reported by apply
        const RewriteJournal::Run run =
            RewriteJournal(*m_connection, m_database, m_config).readRun(&ignored);
        if (run.present && run.problem.isEmpty() &&
            (run.state == RewriteState::Applying || run.state == RewriteState::RollingBack)) {
            step.interrupted = run.config;
            step.interruptedState = run.state;
        }
    }
    RewriteTarget target(*m_connection, m_database, m_config, !m_ferretDb, m_exactGuards);
    const auto keep = [&](RewriteRow row) {
        if (onRow)
            onRow(row);
        if (preview.rows.size() < RewritePreview::kRowLimit)
            preview.rows.push_back(std::move(row));
        else
            preview.truncated = true;
    };
    // An extraction's document also gains its flag (a true boolean).
    const QByteArray flag = RemedyRegistry::of(m_config.kind).flagField(m_config).toUtf8();
    const std::uint64_t flagBytes = flag.isEmpty() ? 0 : std::uint64_t(3 + flag.size());
    if (!m_bsonSize)
        preview.notes << QStringLiteral("no $bsonSize on this server: each document is read "
                                        "whole to measure the sizes after");
    const bool read = target.scan(
        500, cancel,
        [&](std::vector<RewriteTarget::Scanned> &values) {
            for (const auto &[id, value, size] : values) {
                ++preview.examined;
                const RewriteResult r = rewriteAt(m_config, value);
                // An attribute rewrite's value is the whole document: its fields are what moves.
                const QByteArray moved = target.touched(value);
                preview.sizesBefore.add(size);
                if (r.outcome == RewriteResult::Outcome::Changed) {
                    ++preview.changes;
                    preview.bytesBefore += std::uint64_t(moved.size());
                    preview.bytesAfter += std::uint64_t(r.after.size());
                    preview.sizesAfter.add(size + std::uint64_t(r.after.size()) + flagBytes -
                                           std::uint64_t(moved.size()));
                    keep(rowOf(RewriteRow::Kind::Change, id, moved, r.after));
                    continue;
                }
                preview.sizesAfter.add(size);
                if (r.outcome == RewriteResult::Outcome::Cannot) {
                    ++preview.cannot;
                    keep(rowOf(RewriteRow::Kind::Cannot, id, moved, {}, r.why));
                } else {
                    ++preview.unchanged;
                }
            }
            return true;
        },
        &step.error, m_bsonSize ? RewriteTarget::Sizes::Server : RewriteTarget::Sizes::Whole);
    step.progress.stopped = cancel && cancel->load();
    step.ok = read;
    return step;
}

RewriteStep RewriteSession::apply(const RewriteOptions &options, const std::atomic<bool> *cancel,
                                  const RewriteProgressCallback &callback)
{
    RewriteStep step;
    if (!connect(&step))
        return step;
    QElapsedTimer clock;
    clock.start();
    RewriteProgress &progress = step.progress;
    adoptInterrupted();
    RewriteJournal journal(*m_connection, m_database, m_config);
    RewriteTarget target(*m_connection, m_database, m_config, !m_ferretDb, m_exactGuards);
    const std::unique_ptr<SideStore> sideStore = sideOf(*m_connection, m_database, m_config);
    SideStore *side = sideStore.get();
    bool fresh = false;
    if (!startApply(*m_connection, journal, side, m_config, m_writer, cancel, callback, &step,
                    &fresh))
        return step;
    const std::size_t batch = std::max<std::size_t>(1, options.batch);
    const DocumentPace pace(options.maxDocsPerSecond);
    // What an interrupted run left pending first: each is written, found written, or found
    // changed by the application.
    bool ok = journal.forEach(
        {RewriteEntryState::Pending}, batch,
        [&](std::vector<RewriteEntry> &entries) {
            progress.resumed += entries.size();
            return settleEntries(target, journal, side, entries, true, &progress, &step.error);
        },
        &step.error);
    ok = ok && target.scan(
                   batch, cancel,
                   [&](std::vector<RewriteTarget::Scanned> &values) {
                       if (!applyRound(values, m_config, options, target, journal, side, &step))
                           return false;
                       pace.after(progress.examined, cancel);
                       progress.seconds = double(clock.elapsed()) / 1000.0;
                       if (callback)
                           callback(progress);
                       return true;
                   },
                   &step.error);
    progress.seconds = double(clock.elapsed()) / 1000.0;
    if (!ok)
        return step; // the run stays "applying", its writer recorded: apply again resumes
    progress.stopped = cancel && cancel->load();
    if (progress.stopped) { // stopped cleanly: resumable, nothing of it still running
        step.ok = journal.writeRun(RewriteState::Applying, std::nullopt, std::nullopt, &step.error);
        return step;
    }
    const std::uint64_t documents = journal.count(&step.error);
    if (!step.error.isError() && fresh && documents == 0 && progress.examined == 0) {
        // Nothing holds the field: no run of 0 documents is left in the journal.
        progress.notes << QStringLiteral("no document holds %1: nothing to rewrite, and no run "
                                         "is left in the journal")
                              .arg(m_config.path);
        step.ok = journal.forgetRun(&step.error);
        return step;
    }
    step.ok = !step.error.isError() && indexAttributes(target, journal, &step) &&
              journal.writeRun(RewriteState::Applied, documents, std::nullopt, &step.error);
    return step;
}

// An interrupted run of the same rewrite named another way (its fields in another order) is
// resumed as the journal recorded it.
void RewriteSession::adoptInterrupted()
{
    SourceError ignored; // read again, and reported, by the apply
    const RewriteJournal::Run run =
        RewriteJournal(*m_connection, m_database, m_config).readRun(&ignored);
    if (run.present && run.problem.isEmpty() && run.state == RewriteState::Applying &&
        run.config.sameRewrite(m_config))
        m_config = run.config;
}

RewriteStep RewriteSession::verify()
{
    RewriteStep step;
    if (!connect(&step))
        return step;
    RewriteJournal journal(*m_connection, m_database, m_config);
    const std::optional<RewriteJournal::Run> found =
        runIn(journal, m_config, RewriteState::Applied,
              QStringLiteral("%1 is %2, not applied: apply it again to finish it, or roll it back"),
              &step.error);
    if (!found)
        return step;
    const RewriteJournal::Run &run = *found;
    RewriteVerify &verify = step.verify;
    verify.recorded = run.documents;
    verify.entries = journal.count(&step.error);
    RewriteTarget target(*m_connection, m_database, run.config, !m_ferretDb, m_exactGuards);
    const std::unique_ptr<SideStore> sideStore = sideOf(*m_connection, m_database, run.config);
    SideStore *side = sideStore.get();
    const bool ok = journal.forEach(
        {RewriteEntryState::Applied}, 500,
        [&](std::vector<RewriteEntry> &entries) {
            std::vector<QByteArray> ids;
            for (const RewriteEntry &e : entries)
                ids.push_back(e.id);
            RewriteTarget::Values values, sideValues;
            if (!target.valuesOf(ids, &values, &step.error) ||
                (side && !side->stored(entries, &sideValues, &step.error)))
                return false;
            for (const RewriteEntry &e : entries)
                verifyEntry(run.config, e, values[e.id],
                            side ? sideValues[e.id] : std::optional<QByteArray>(e.before), &verify);
            return true;
        },
        &step.error);
    step.ok = ok && !step.error.isError();
    return step;
}

RewriteStep RewriteSession::rollback(const RewriteOptions &options, const std::atomic<bool> *cancel,
                                     const RewriteProgressCallback &callback)
{
    RewriteStep step;
    if (!connect(&step))
        return step;
    QElapsedTimer clock;
    clock.start();
    RewriteJournal journal(*m_connection, m_database, m_config);
    const RewriteJournal::Run run = journal.readRun(&step.error);
    if (step.error.isError())
        return step;
    if (!run.present || !run.problem.isEmpty() || run.state == RewriteState::RolledBack) {
        step.error =
            usage(!run.present ? QStringLiteral("the journal holds no %1").arg(m_config.describe())
                  : !run.problem.isEmpty()
                      ? run.problem
                      : QStringLiteral("%1 is rolled back already").arg(run.config.describe()));
        return step;
    }
    // The run as it was recorded (its target type, its names), whatever was asked now.
    RewriteJournal recorded(*m_connection, m_database, run.config);
    if (!fenceOff(*m_connection, run, cancel, callback, &step.progress, &step.error) ||
        !recorded.writeRun(RewriteState::RollingBack, run.documents,
                           m_writer.isEmpty() ? std::nullopt : std::optional<QString>(m_writer),
                           &step.error))
        return step;
    RewriteTarget target(*m_connection, m_database, run.config, !m_ferretDb, m_exactGuards);
    target.setBeforeWrite(options.beforeRestore);
    const std::unique_ptr<SideStore> sideStore = sideOf(*m_connection, m_database, run.config);
    SideStore *side = sideStore.get();
    RewriteProgress &progress = step.progress;
    const DocumentPace pace(options.maxDocsPerSecond);
    const bool ok = recorded.forEach(
        {RewriteEntryState::Pending, RewriteEntryState::Applied},
        std::max<std::size_t>(1, options.batch),
        [&](std::vector<RewriteEntry> &entries) {
            progress.examined += entries.size();
            if (!settleEntries(target, recorded, side, entries, false, &progress, &step.error))
                return false;
            pace.after(progress.examined, cancel);
            progress.seconds = double(clock.elapsed()) / 1000.0;
            if (callback)
                callback(progress);
            return !(cancel && cancel->load());
        },
        &step.error);
    progress.seconds = double(clock.elapsed()) / 1000.0;
    if (!ok)
        return step;
    progress.stopped = cancel && cancel->load();
    step.ok =
        (progress.stopped || dropAttributeIndex(target, recorded, &step)) &&
        recorded.writeRun(progress.stopped ? RewriteState::RollingBack : RewriteState::RolledBack,
                          run.documents, std::nullopt, &step.error);
    if (step.ok && !progress.stopped) {
        progress.notes << leftovers(run.config, side, &step.error);
        step.ok = !step.error.isError();
    }
    return step;
}

RewriteStep RewriteSession::forget()
{
    RewriteStep step;
    if (!connect(&step))
        return step;
    RewriteJournal journal(*m_connection, m_database, m_config);
    const std::optional<RewriteJournal::Run> found =
        runIn(journal, m_config, RewriteState::RolledBack,
              QStringLiteral("%1 is %2: only a rolled-back run is forgotten (roll it back first)"),
              &step.error);
    if (!found)
        return step;
    const RewriteJournal::Run &run = *found;
    RewriteJournal recorded(*m_connection, m_database, run.config);
    const std::unique_ptr<SideStore> side = sideOf(*m_connection, m_database, run.config);
    if (!recorded.clearEntries(&step.error) || !recorded.clearIndex(&step.error) ||
        !recorded.forgetRun(&step.error))
        return step;
    step.progress.notes << QStringLiteral("the run and its entries removed from %1")
                               .arg(run.config.journalCollection());
    step.ok = !side || side->tidy(&step.progress.notes, &step.error);
    return step;
}

} // namespace oe
