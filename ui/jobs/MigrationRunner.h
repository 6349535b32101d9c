#pragma once

#include "analysis/SourceRef.h"
#include "jobs/MigrationOutcome.h"
#include "split/SplitConfig.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace oe {

class LatestJob;
class MigrationSession;

// The wizard's handle on a migration: one core MigrationSession (the one the CLI drives) for a
// target and a layout, whose steps run one at a time as LatestJobs. Progress arrives on the UI
// thread as a signal (the latest, coalesced); cancel() stops the running step after its batch.
class MigrationRunner : public QObject
{
    Q_OBJECT
public:
    explicit MigrationRunner(QObject *parent = nullptr);
    ~MigrationRunner() override;

    // A new session (the previous one is dropped): `outDir` is where an offline step writes.
    void setTarget(const SourceRef &target, const SplitConfig &config, const QString &outDir = {});
    const SourceRef &target() const { return m_target; }
    const SplitConfig &config() const { return m_config; }
    bool isRunning() const;
    // False (nothing starts) while a step runs or before setTarget().
    bool start(MigrationOutcome::Step step, const MigrationOptions &options = {});
    void cancel();

signals:
    void progressed(const oe::MigrationProgress &progress);
    void finished(const oe::MigrationOutcome &outcome);
    // After a step that wrote to the target collection (apply, rollback, clean-up).
    void targetChanged(const oe::SourceRef &target, const oe::SplitConfig &config);

private:
    SourceRef m_target;
    SplitConfig m_config;
    std::shared_ptr<MigrationSession> m_session;
    // The step's own stop flag: a Stop must not drop the outcome (the step reports where it
    // stopped), so it is not the job's cancel, which would.
    std::shared_ptr<std::atomic<bool>> m_cancel;
    LatestJob *m_job;
};

} // namespace oe
