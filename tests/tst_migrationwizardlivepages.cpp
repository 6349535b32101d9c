// The migration wizard's own pages against a real server (mongod; FerretDB as the compatibility
// server): the Layout page asks the server about the overflow collection as you type; Apply
// shows progress, stops within a batch and asks before closing; a live split stopped after a
// batch by the Apply page's button, resumed from the journal, verified, guarded and rolled back
// to documents byte-identical to the originals; the safety page names FerretDB's non-atomic
// updates there. The wizard in the main window: tst_migrationwizardlivewindow.
#include "GuiFixtures.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "WizardLiveFixture.h"
#include "explore/AnalysisSession.h"
#include "jobs/MigrationRunner.h"
#include "split/SplitLayoutPreset.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardApplyPage.h"
#include "wizard/WizardGuardPage.h"
#include "wizard/WizardLayoutPage.h"
#include "wizard/WizardSafetyPage.h"
#include "wizard/WizardVerifyPage.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"
#include <QProgressBar>
#include <QSpinBox>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QtTest>

using namespace oe;

class TestMigrationWizardLivePages : public QObject, protected WizardLiveFixture
{
    Q_OBJECT

    // The Guard page after a verified split: on mongod the collMod and the count come first,
    // with the level and action on the server now and with the guard; warn on a collection
    // whose own rule errors is refused with Use error offered; Apply (error) keeps strict and
    // error (read back from the server) and makes the server refuse a naive $push past the
    // keep; on FerretDB one line says it has no validators and Apply stays off.
    void checkGuardPage(MigrationWizard &wizard)
    {
        const bool ferretDb = fixtures::LiveServer::open().isFerretDb();
        QString error;
        // The user's own rule, checked strictly, refusing what breaks it.
        if (!ferretDb)
            QVERIFY2(fixtures::command(m_uri, QStringLiteral("oe_wizard"),
                                       QStringLiteral("{\"collMod\": \"%1\", \"validator\": "
                                                      "{\"_id\": {\"$exists\": true}}, "
                                                      "\"validationLevel\": \"strict\", "
                                                      "\"validationAction\": \"error\"}")
                                           .arg(m_collection)
                                           .toUtf8(),
                                       &error),
                     qPrintable(error));
        QSignalSpy planned(wizard.page(MigrationWizard::GuardPageId), SIGNAL(planned(bool)));
        wizard.next();
        QCOMPARE(wizard.currentId(), int(MigrationWizard::GuardPageId));
        auto *guard = qobject_cast<WizardGuardPage *>(wizard.currentPage());
        QVERIFY(planned.wait(60000));
        const SplitConfig config = wizard.runner()->config();
        if (ferretDb) {
            QVERIFY2(guard->status()->text().contains(QStringLiteral("no $jsonSchema validators")),
                     qPrintable(guard->status()->text()));
            QVERIFY(!guard->applyButton()->isEnabled());
            return;
        }
        QCOMPARE(guard->plan().conflicts, std::int64_t(0));
        // Warn (the page's first choice) would weaken the collection's error: refused, and
        // Use error offered.
        QCOMPARE(guard->actionBox()->currentData().toInt(), int(GuardAction::Warn));
        QVERIFY2(guard->settingsView()->text().contains(
                     QStringLiteral("On the server now: validationLevel strict, validationAction "
                                    "error")),
                 qPrintable(guard->settingsView()->text()));
        QVERIFY2(guard->status()->text().contains(QStringLiteral("warn would weaken")),
                 qPrintable(guard->status()->text()));
        QVERIFY(!guard->applyButton()->isEnabled());
        QVERIFY(guard->useErrorButton()->isVisible());
        QTest::mouseClick(guard->useErrorButton(), Qt::LeftButton);
        QCOMPARE(guard->actionBox()->currentData().toInt(), int(GuardAction::Error));
        QVERIFY(planned.wait(60000));
        QVERIFY(!guard->useErrorButton()->isVisible());
        QVERIFY2(guard->settingsView()->text().contains(
                     QStringLiteral("With the guard: validationLevel strict, validationAction "
                                    "error")),
                 qPrintable(guard->settingsView()->text()));
        QVERIFY2(guard->commandView()->toPlainText().contains(
                     QStringLiteral("\"maxItems\": %1").arg(config.keep)),
                 qPrintable(guard->commandView()->toPlainText()));
        QVERIFY2(guard->status()->text().contains(QStringLiteral("0 document(s) over the guard")),
                 qPrintable(guard->status()->text()));
        QSignalSpy done(guard, &WizardGuardPage::finished);
        QTest::mouseClick(guard->applyButton(), Qt::LeftButton);
        QVERIFY(done.wait(60000));
        QVERIFY2(done.first().first().value<GuardOutcome>().ok,
                 qPrintable(done.first().first().value<GuardOutcome>().error.toString()));
        QVERIFY(planned.wait(60000));
        QVERIFY(guard->removeButton()->isEnabled());
        QVERIFY2(guard->status()->text().contains(QStringLiteral(
                     "validationLevel strict (as it was), validationAction error (as it was)")),
                 qPrintable(guard->status()->text()));
        saveScreenshot(wizard, QStringLiteral("wizard-guard.png"));
        QStringList items;
        for (int i = 0; i <= config.keep; ++i)
            items << QString::number(i);
        QByteArray reply;
        QVERIFY(!fixtures::command(
            m_uri, QStringLiteral("oe_wizard"),
            QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {}, \"u\": {\"$push\": "
                           "{\"%2\": {\"$each\": [%3]}}}}]}")
                .arg(m_collection, config.field, items.join(QLatin1Char(',')))
                .toUtf8(),
            &error, &reply));
        QVERIFY2(reply.contains("Document failed validation"), qPrintable(error));
    }

    // The wizard driven to its layout page, once the page's check on the server is done: the
    // page, or null.
    WizardLayoutPage *layoutPageOf(MigrationWizard &wizard)
    {
        driveTo(wizard, MigrationWizard::LayoutPageId);
        auto *layout = qobject_cast<WizardLayoutPage *>(wizard.currentPage());
        if (!layout || !QTest::qWaitFor([&] { return !layout->isCheckingServer(); }, 60000))
            return nullptr;
        return layout;
    }

private slots:
    void initTestCase() { setUpBooks(); }

    // Validation as you type reaches the server: an overflow collection holding documents that
    // are not pages is refused before the preview; an empty one is accepted.
    void layoutChecksTheOverflowCollectionOnTheServer()
    {
        const QString occupied = m_collection + QStringLiteral("_occupied");
        importBooks(occupied);
        Workspace workspace;
        SourceState &state = guifixtures::stateWith(workspace, analyseLive(m_collection));
        state.setKeep(10);
        MigrationWizard wizard(&workspace, state.analysis().request.source);
        wizard.show();
        WizardLayoutPage *layout = layoutPageOf(wizard);
        QVERIFY(layout);
        QVERIFY2(layout->isComplete(), qPrintable(layout->problemText()));

        layout->edit(QStringLiteral("overflow"))->setText(occupied);
        QVERIFY(layout->isCheckingServer());
        QVERIFY(!layout->isComplete()); // not while the server is asked
        QTRY_VERIFY_WITH_TIMEOUT(!layout->isCheckingServer(), 60000);
        QVERIFY(!layout->isComplete());
        QVERIFY2(layout->problemText().contains(QStringLiteral("300 document(s) that are not "
                                                               "overflow pages")),
                 qPrintable(layout->problemText()));

        layout->edit(QStringLiteral("overflow"))->setText(m_collection + QStringLiteral("_pages"));
        QTRY_VERIFY_WITH_TIMEOUT(!layout->isCheckingServer(), 60000);
        QVERIFY2(layout->isComplete(), qPrintable(layout->problemText()));
    }

    // The activity-feed preset on a collection whose documents hold an int userId of their own
    // (issue 53, defect 10): its link field userId is refused on the layout page before the
    // preview, naming the field; renaming it (the user's word) makes the page complete.
    void presetNamesAFieldTheDocumentsHold()
    {
        const QString owned = m_collection + QStringLiteral("_owned");
        importBooks(owned);
        QString error;
        QVERIFY2(fixtures::command(m_uri, QStringLiteral("oe_wizard"),
                                   QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {}, "
                                                  "\"u\": {\"$set\": {\"userId\": 53}}, "
                                                  "\"multi\": true}]}")
                                       .arg(owned)
                                       .toUtf8(),
                                   &error),
                 qPrintable(error));
        Workspace workspace;
        SourceState &state = guifixtures::stateWith(workspace, analyseLive(owned));
        state.setKeep(10);
        MigrationWizard wizard(&workspace, state.analysis().request.source);
        wizard.show();
        WizardLayoutPage *layout = layoutPageOf(wizard);
        QVERIFY(layout);
        QVERIFY2(layout->isComplete(), qPrintable(layout->problemText()));
        QComboBox *preset = layout->presetBox();
        const int feed = preset->findData(int(SplitLayoutPreset::ActivityFeed));
        QVERIFY(feed >= 0);
        preset->setCurrentIndex(feed);
        emit preset->activated(feed); // as a click on the item does
        QCOMPARE(layout->edit(QStringLiteral("link"))->text(), QStringLiteral("userId"));
        QTRY_VERIFY_WITH_TIMEOUT(!layout->isCheckingServer(), 60000);
        QVERIFY(!layout->isComplete());
        QVERIFY2(layout->problemText().contains(QStringLiteral("hold a field 'userId' already")),
                 qPrintable(layout->problemText()));
        layout->edit(QStringLiteral("link"))->setText(QStringLiteral("feedOwner"));
        QTRY_VERIFY_WITH_TIMEOUT(!layout->isCheckingServer(), 60000);
        QVERIFY2(layout->isComplete(), qPrintable(layout->problemText()));
    }

    void applyShowsProgressStopsWithinABatchAndAsksBeforeClosing()
    {
        // The wizard's own batch size (up to 200: more than this collection's outliers), paced
        // so that the run lasts on any server: the bar moves while it runs, Stop stops after
        // the batch it is in, and closing the window while it runs asks first.
        const QString collection = m_collection + QStringLiteral("_progress");
        importBooks(collection);
        Workspace workspace;
        SourceState &state = guifixtures::stateWith(workspace, analyseLive(collection));
        state.setKeep(10);
        MigrationWizard wizard(&workspace, state.analysis().request.source);
        wizard.show();
        driveTo(wizard, MigrationWizard::SafetyPageId);
        const std::uint64_t toSplit = wizard.outcome(MigrationOutcome::Step::Prepare).plan.affected;
        auto *safety = qobject_cast<WizardSafetyPage *>(wizard.currentPage());
        QCOMPARE(std::size_t(safety->batchBox()->value()), MigrationOptions().batch);
        QVERIFY(toSplit > 16 && toSplit < std::uint64_t(safety->batchBox()->value()));
        safety->throttleBox()->setValue(4); // the throttle a user sets for a busy cluster
        safety->confirmEdit()->setText(collection);
        wizard.next();
        auto *apply = qobject_cast<WizardApplyPage *>(wizard.currentPage());
        auto *bar = apply->findChild<QProgressBar *>();
        QVERIFY(bar);
        QTRY_VERIFY_WITH_TIMEOUT(bar->value() > 0, 60000);
        QVERIFY(wizard.runner()->isRunning());
        saveScreenshot(wizard, QStringLiteral("wizard-apply-running.png"));

        QTest::mouseClick(apply->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(apply->resumeButton()->isVisible(), 60000);
        const MigrationOutcome first = wizard.outcome(MigrationOutcome::Step::Apply);
        QVERIFY2(first.ok && first.cancelled, qPrintable(first.error.toString()));
        QVERIFY2(first.progress.migrated > 0 && first.progress.migrated < toSplit,
                 qPrintable(QStringLiteral("%1 of %2").arg(first.progress.migrated).arg(toSplit)));
        QCOMPARE(std::uint64_t(bar->value()), first.progress.migrated);

        QTest::mouseClick(apply->resumeButton(), Qt::LeftButton);
        QVERIFY(wizard.runner()->isRunning());
        // Resumed, the bar goes on from the documents already split, never back to 0.
        QCOMPARE(std::uint64_t(bar->value()), first.progress.migrated);
        wizard.reject(); // the window's X
        QVERIFY(wizard.isVisible());
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = wizard.findChild<QMessageBox *>(QStringLiteral("closeWhileRunning"))) &&
                    box->isVisible());
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("stopAndClose")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!wizard.isVisible(), 60000);
        QVERIFY(!wizard.runner()->isRunning());
        const MigrationOutcome second = wizard.outcome(MigrationOutcome::Step::Apply);
        QVERIFY(second.ok && second.cancelled);
        QVERIFY(first.progress.migrated + second.progress.migrated < toSplit);
    }

    void stopResumeVerifyRollBack()
    {
        const auto originals =
            fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection);
        QCOMPARE(originals.size(), std::size_t(300));

        Workspace workspace;
        SourceState &state = guifixtures::stateWith(workspace, analyseLive(m_collection));
        QCOMPARE(state.analysis().profile.documents, std::uint64_t(300));
        state.setKeep(10);

        MigrationWizard wizard(&workspace, state.analysis().request.source);
        wizard.show();

        driveTo(wizard, MigrationWizard::SafetyPageId);
        auto *safety = qobject_cast<WizardSafetyPage *>(wizard.currentPage());
        // FerretDB 1.x's non-atomic updates are named; on MongoDB there is nothing to warn of.
        const QString findings = safety->findings()->text();
        QVERIFY2(findings.contains(QStringLiteral("FerretDB")) ==
                         fixtures::LiveServer::open().isFerretDb() &&
                     findings.contains(QStringLiteral("not atomic")) ==
                         fixtures::LiveServer::open().isFerretDb(),
                 qPrintable(findings));
        const std::uint64_t toSplit = wizard.outcome(MigrationOutcome::Step::Prepare).plan.affected;
        QVERIFY(toSplit > 8);
        // The live Safety page (its backup choice shown) has one control per Alt+letter.
        QVERIFY2(guifixtures::mnemonicClashes(&wizard).isEmpty(),
                 qPrintable(guifixtures::mnemonicClashes(&wizard).join(QStringLiteral("; "))));
        // Small rounds, paced, so the run is stopped mid-way whatever the server's speed.
        paceSlowly(safety);
        safety->confirmEdit()->setText(m_collection);
        saveScreenshot(wizard, QStringLiteral("wizard-safety-live.png"));
        QVERIFY(wizard.validateCurrentPage());
        wizard.next();
        QCOMPARE(wizard.currentId(), int(MigrationWizard::ApplyPageId));

        auto *apply = qobject_cast<WizardApplyPage *>(wizard.currentPage());
        stopAfterTheFirstRound(apply);
        const MigrationOutcome &first = wizard.outcome(MigrationOutcome::Step::Apply);
        QVERIFY2(first.ok && first.cancelled, qPrintable(first.error.toString()));
        QVERIFY(first.progress.migrated > 0);
        QVERIFY(first.progress.migrated < toSplit);
        QVERIFY(!apply->isComplete());

        const std::uint64_t beforeResume = first.progress.migrated;
        wizard.setPace(4, 0); // the rest unthrottled: the test need not wait for the pacing
        QTest::mouseClick(apply->resumeButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(apply->isComplete(), 240000);
        const MigrationOutcome &second = wizard.outcome(MigrationOutcome::Step::Apply);
        QVERIFY2(second.ok && !second.cancelled, qPrintable(second.error.toString()));
        // Done, with every document counted (the earlier run's too) and no word of the stop
        // that the resume undid.
        QCOMPARE(second.progress.migrated, toSplit - beforeResume);
        QVERIFY2(apply->status()->text().startsWith(QStringLiteral("<b>Done.</b>")) &&
                     !apply->status()->text().contains(QStringLiteral("cancelled")),
                 qPrintable(apply->status()->text()));
        const SplitPlan &plan = wizard.outcome(MigrationOutcome::Step::Prepare).plan;
        QVERIFY2(apply->figures()->text().startsWith(
                     QStringLiteral("%1 documents split (%2 in this run) · %3 elements moved · %4 "
                                    "pages written")
                         .arg(QLocale().toString(qulonglong(toSplit)),
                              QLocale().toString(qulonglong(toSplit - beforeResume)),
                              QLocale().toString(qulonglong(plan.elementsMoved)),
                              QLocale().toString(qulonglong(plan.overflowDocuments)))),
                 qPrintable(apply->figures()->text()));

        driveTo(wizard, MigrationWizard::VerifyPageId);
        auto *verify = qobject_cast<WizardVerifyPage *>(wizard.currentPage());
        // Before a live rollback the user is told which application code it is safe with.
        QVERIFY2(verify->rollbackStatus()->text().contains(
                     QStringLiteral("safe while the application appends with the write path")),
                 qPrintable(verify->rollbackStatus()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(
            verify->isComplete() && wizard.outcome(MigrationOutcome::Step::Verify).ok, 120000);
        const VerifyReport &report = wizard.outcome(MigrationOutcome::Step::Verify).verify;
        QCOMPARE(report.checked, toSplit);
        QCOMPARE(report.mismatches, std::uint64_t(0));
        const auto split =
            fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection);
        QCOMPARE(split.size(), originals.size());
        QVERIFY(split != originals);

        checkGuardPage(wizard);
        if (QTest::currentTestFailed())
            return;
        wizard.back(); // the rollback lifts a guard of the collection first
        QCOMPARE(wizard.currentId(), int(MigrationWizard::VerifyPageId));

        verify->rollbackConfirm()->setChecked(true);
        QTest::mouseClick(verify->rollbackButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(verify->isComplete() &&
                                     wizard.outcome(MigrationOutcome::Step::Rollback).step ==
                                         MigrationOutcome::Step::Rollback,
                                 240000);
        const MigrationOutcome &rolledBack = wizard.outcome(MigrationOutcome::Step::Rollback);
        QVERIFY2(rolledBack.ok, qPrintable(rolledBack.error.toString()));
        QCOMPARE(rolledBack.progress.migrated, toSplit);
        // Its own progress: the bar counted every restored document.
        QVERIFY(verify->rollbackBar()->isVisible());
        QCOMPARE(verify->rollbackBar()->maximum(), int(toSplit));
        QCOMPARE(verify->rollbackBar()->value(), int(toSplit));
        QVERIFY2(verify->rollbackStatus()->text().contains(QStringLiteral("Rolled back")),
                 qPrintable(verify->rollbackStatus()->text()));
        QVERIFY(fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection) ==
                originals);
        QVERIFY2(wizard.log().contains(
                     QStringLiteral("the guard on %1 was removed").arg(m_collection)) ==
                     fixtures::LiveServer::open().isMongod(),
                 qPrintable(wizard.log()));
        // Nothing left to roll back: the button stays off, even ticked again.
        QVERIFY(!verify->rollbackButton()->isEnabled());
        verify->rollbackConfirm()->setChecked(false);
        verify->rollbackConfirm()->setChecked(true);
        QVERIFY(!verify->rollbackButton()->isEnabled());

        // What the rollback left is said, and removed on request.
        QVERIFY(verify->leftovers()->isVisible());
        const QString overflow = m_collection + QStringLiteral("_overflow");
        QVERIFY2(verify->leftovers()->text().contains(
                     QStringLiteral("overflow collection %1 (empty)").arg(overflow)) &&
                     verify->leftovers()->text().contains(QStringLiteral("migration journal")),
                 qPrintable(verify->leftovers()->text()));
        QVERIFY(fixtures::collectionExists(m_uri, QStringLiteral("oe_wizard"), overflow));
        QVERIFY2(guifixtures::mnemonicClashes(&wizard).isEmpty(),
                 qPrintable(guifixtures::mnemonicClashes(&wizard).join(QStringLiteral("; "))));
        saveScreenshot(wizard, QStringLiteral("wizard-verify-leftovers.png"));
        QTest::mouseClick(verify->removeLeftoversButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(verify->leftovers()->text().startsWith(QStringLiteral("Removed")),
                                 60000);
        QVERIFY(!fixtures::collectionExists(m_uri, QStringLiteral("oe_wizard"), overflow));
        QVERIFY(!fixtures::collectionExists(m_uri, QStringLiteral("oe_wizard"),
                                            m_collection + QStringLiteral("_outlier_migrations")));
        QVERIFY(fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection) ==
                originals);
    }
};

QTEST_MAIN(TestMigrationWizardLivePages)
#include "tst_migrationwizardlivepages.moc"
