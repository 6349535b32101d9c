#pragma once

// The live migration wizard tests' shared setup (tst_migrationwizardlivepages,
// tst_migrationwizardlivewindow): 300 demo books imported into oe_wizard.books_<pid> on the
// fixture's server (mongod, or FerretDB as the compatibility server), fresh copies of them
// for each test, and the steps a user takes in the wizard: driving it to a page, pacing a
// split slowly and stopping it after its first round.

#include "explore/AnalysisResult.h"
#include "wizard/MigrationWizard.h"

#include <QString>
#include <QTemporaryDir>

class QWidget;

namespace oe {
class WizardApplyPage;
class WizardSafetyPage;
} // namespace oe

class WizardLiveFixture
{
protected:
    QTemporaryDir m_dir;
    QString m_uri;
    QString m_collection;

    QString m_dump;

    // The work of each test's initTestCase: the server's URI, the demo dump, and the books
    // imported into oe_wizard.<m_collection>.
    void setUpBooks();

    // A fresh copy of the books in oe_wizard.<name>.
    void importBooks(const QString &name);

    oe::AnalysisResult analyseLive(const QString &collection);

    // On the Safety page, as a user would: batches of 4 documents at most 4 documents a second
    // (client-side pacing: a round lasts a second on any server, so Stop pressed once the first
    // round is in lands long before the last).
    static void paceSlowly(oe::WizardSafetyPage *safety);
    // Presses Stop once the first round is in (the bar moved) and waits until the run stopped.
    static void stopAfterTheFirstRound(oe::WizardApplyPage *apply);

    // With OE_SCREENSHOT_DIR set, the wizard as it looks now, for a person to look at.
    static void saveScreenshot(QWidget &wizard, const QString &name);

    static void driveTo(oe::MigrationWizard &wizard, oe::MigrationWizard::PageId page);
};
