#pragma once

#include "analysis/SourceRef.h"

#include <QObject>
#include <QPointer>

namespace oe {

class MigrationRunner;
class MigrationWizard;
class Workspace;
struct SplitConfig;

// Keeps the window current after a migration: when a runner (the wizard's, the Migrations
// view's) wrote to a collection, the connection's catalog is to be read again, and the
// collection is analysed again with the names the split used. The wizard works from the
// analysis it started with: while it is open on that collection, the new analysis waits for it
// to close.
class MigrationFollower : public QObject
{
    Q_OBJECT
public:
    explicit MigrationFollower(Workspace *workspace, QObject *parent = nullptr);
    void follow(MigrationRunner *runner);
    void setWizard(MigrationWizard *wizard); // the one open, if any

signals:
    void catalogChanged(const QString &connection);
    // A split, rollback or clean-up wrote to `target` (its indexes and documents may differ).
    void collectionWritten(const oe::SourceRef &target);
    void followed(oe::MigrationRunner *runner); // each runner follow() is given
    void reanalysing(const QString &source);

private:
    void written(const SourceRef &target, const SplitConfig &config);

    Workspace *m_workspace;
    QPointer<MigrationWizard> m_wizard;
};

} // namespace oe
