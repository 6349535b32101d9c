#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

namespace oe {

class MigrationWizard;

// Takes a migration wizard to a page as a user would: waits for each page to be complete
// (its background step finished), types the confirmation on the safety page, presses Next.
// For `--screenshot --wizard PAGE` and the wizard's tests; reached() or failed() ends it.
class WizardDriver : public QObject
{
    Q_OBJECT
public:
    WizardDriver(MigrationWizard *wizard, int targetId, QObject *parent = nullptr);
    static constexpr int kStuckMs = 120000; // a page that stays incomplete this long fails

signals:
    void reached();
    void failed(const QString &reason);

private:
    void step();
    bool settling() const;

    QPointer<MigrationWizard> m_wizard;
    int m_target;
    QTimer m_poll;
    QTimer m_stuck;
};

} // namespace oe
