#include "jobs/MigrationRunner.h"

#include "jobs/LatestJob.h"
#include "migration/MigrationSession.h"

#include <QElapsedTimer>

namespace oe {

namespace {

using Step = MigrationOutcome::Step;

// One step on `session`, blocking (a pool thread).
MigrationOutcome runStep(MigrationSession &session, Step step, const MigrationOptions &options,
                         const std::atomic<bool> &cancel, const MigrationProgressCallback &progress)
{
    MigrationOutcome out;
    out.step = step;
    QElapsedTimer clock;
    clock.start();
    switch (step) {
    case Step::Prepare:
        out.ok = session.prepare(&out.error);
        if (out.ok)
            static_cast<MigrationStep &>(out) = session.plan({}, &cancel, progress);
        break;
    case Step::Apply:
        static_cast<MigrationStep &>(out) = session.apply(options, &cancel, progress);
        break;
    case Step::Verify:
        static_cast<MigrationStep &>(out) = session.verify();
        break;
    case Step::Rollback:
        static_cast<MigrationStep &>(out) = session.rollback(options, &cancel, progress);
        if (out.ok && out.verify.ok() && !out.progress.stopped) {
            std::vector<RollbackLeftovers::Item> items;
            SourceError ignored; // the rollback's outcome stands; the list is a courtesy
            if (session.leftovers(options.backupCollection, &items, &ignored))
                for (const auto &item : items)
                    out.leftovers << item.describe();
        }
        break;
    case Step::RemoveLeftovers:
        out.ok = session.removeLeftovers(options.backupCollection, &out.leftovers, &out.error);
        break;
    }
    // A live apply or rollback says itself whether it stopped early: a Stop that came after
    // its last batch stopped nothing.
    const bool reportsStop = session.isLive() && (step == Step::Apply || step == Step::Rollback);
    out.cancelled = reportsStop ? out.progress.stopped : cancel.load();
    out.notes = session.notes();
    out.seconds = double(clock.nsecsElapsed()) / 1e9;
    return out;
}

} // namespace

MigrationRunner::MigrationRunner(QObject *parent) : QObject(parent), m_job(new LatestJob(this))
{
    qRegisterMetaType<MigrationOutcome>();
    qRegisterMetaType<MigrationProgress>();
}

MigrationRunner::~MigrationRunner()
{
    cancel();
}

void MigrationRunner::setTarget(const SourceRef &target, const SplitConfig &config,
                                const QString &outDir)
{
    cancel();
    m_target = target;
    m_config = config;
    m_session = std::make_shared<MigrationSession>(target, config, outDir);
}

bool MigrationRunner::isRunning() const
{
    return m_job->isRunning();
}

bool MigrationRunner::start(MigrationOutcome::Step step, const MigrationOptions &options)
{
    if (!m_session || isRunning())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_job->startWithProgress<MigrationProgress>(
        [session = m_session, step, options,
         cancel = m_cancel](const std::atomic<bool> &, const MigrationProgressCallback &report) {
            return runStep(*session, step, options, *cancel, report);
        },
        [this](const MigrationOutcome &outcome) {
            emit finished(outcome);
            // A split, a rollback or a clean-up changed the collection (even one that stopped
            // part way): whoever shows it reads it again.
            using Step = MigrationOutcome::Step;
            if (m_target.kind == SourceRef::Kind::Collection &&
                (outcome.step == Step::Apply || outcome.step == Step::Rollback ||
                 outcome.step == Step::RemoveLeftovers))
                emit targetChanged(m_target, m_config);
        },
        [this](const MigrationProgress &p) { emit progressed(p); });
    return true;
}

void MigrationRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace oe
