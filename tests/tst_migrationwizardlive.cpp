// The migration wizard against a real server (mongod; FerretDB as the compatibility server): a live
// split stopped after a batch by the Apply page's button, resumed from the journal, verified, and
// rolled back to documents byte-identical to the originals; the safety page names FerretDB's
// non-atomic updates there.
#include "GuiFixtures.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "charts/Format.h"
#include "charts/HistogramChart.h"
#include "dialogs/MigrationsDialog.h"
#include "explore/AnalysisSession.h"
#include "explorer/AnalysisOptionsBar.h"
#include "explorer/CollectionView.h"
#include "explorer/IndexesPage.h"
#include "explorer/MainWindow.h"
#include "explorer/SourceTreeModel.h"
#include "jobs/MigrationRunner.h"
#include "widgets/ChartPanel.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardApplyPage.h"
#include "wizard/WizardDriver.h"
#include "wizard/WizardGuardPage.h"
#include "wizard/WizardLayoutPage.h"
#include "wizard/WizardPreviewPage.h"
#include "wizard/WizardSafetyPage.h"
#include "wizard/WizardVerifyPage.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"
#include <QProgressBar>
#include <QSpinBox>
#include <QTableWidget>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <atomic>

using namespace oe;

class TestMigrationWizardLive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;
    QString m_collection;

    QString m_dump;

    // A fresh copy of the books in oe_wizard.<name>.
    void importBooks(const QString &name)
    {
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("import"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
                   QStringLiteral("oe_wizard"), QStringLiteral("--collection"), name,
                   QStringLiteral("--dump"), m_dump, QStringLiteral("--drop")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    }

    AnalysisResult analyseLive(const QString &collection)
    {
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Collection;
        request.source.settings.uri = m_uri;
        request.source.database = QStringLiteral("oe_wizard");
        request.source.collection = collection;
        request.selection.mode = AnalysisOptions::Mode::Full;
        return AnalysisSession::run(request);
    }

    // On the Safety page, as a user would: batches of 4 documents at most 4 documents a second
    // (client-side pacing: a round lasts a second on any server, so Stop pressed once the first
    // round is in lands long before the last).
    static void paceSlowly(WizardSafetyPage *safety)
    {
        QVERIFY(safety->batchBox()->isVisible() && safety->throttleBox()->isVisible());
        safety->batchBox()->setValue(4);
        safety->throttleBox()->setValue(4);
    }
    // Presses Stop once the first round is in (the bar moved) and waits until the run stopped.
    static void stopAfterTheFirstRound(WizardApplyPage *apply)
    {
        auto *bar = apply->findChild<QProgressBar *>();
        if (!bar || !QTest::qWaitFor([&] { return bar->value() > 0; }, 60000))
            qFatal("the split did not start");
        QTest::mouseClick(apply->cancelButton(), Qt::LeftButton);
        if (!QTest::qWaitFor([&] { return apply->resumeButton()->isVisible(); }, 120000))
            qFatal("the split did not stop");
    }

    // Applies a split of `collection` through the wizard and stops it after its first round:
    // the journal records an interrupted run. Returns the documents the plan would split.
    std::uint64_t splitAndStop(Workspace &workspace, SourceState &state, const QString &collection)
    {
        MigrationWizard wizard(&workspace, state.analysis().request.source);
        wizard.show();
        driveTo(wizard, MigrationWizard::SafetyPageId);
        const std::uint64_t toSplit = wizard.outcome(MigrationOutcome::Step::Prepare).plan.affected;
        auto *safety = qobject_cast<WizardSafetyPage *>(wizard.currentPage());
        paceSlowly(safety);
        safety->confirmEdit()->setText(collection);
        wizard.next();
        stopAfterTheFirstRound(qobject_cast<WizardApplyPage *>(wizard.currentPage()));
        return toSplit;
    }

    // With OE_SCREENSHOT_DIR set, the wizard as it looks now, for a person to look at.
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

    static void saveScreenshot(QWidget &wizard, const QString &name)
    {
        const QString dir = qEnvironmentVariable("OE_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            wizard.grab().save(QDir(dir).filePath(name));
    }

    // The window's offer to resume interrupted runs, if it shows one naming `collection`.
    static QMessageBox *offerOf(QWidget &window, const QString &collection)
    {
        for (QMessageBox *box : window.findChildren<QMessageBox *>())
            if (box->isVisible() && box->windowTitle() == QStringLiteral("Interrupted migration") &&
                box->text().contains(QStringLiteral("oe_wizard.%1 (").arg(collection)))
                return box;
        return nullptr;
    }

    // `window` connected (asking the user as it would: interactive), `collection` selected and
    // analysed in full.
    void openAnalysed(MainWindow &window, const QString &collection)
    {
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        guifixtures::showConnecting(window, m_uri);
        window.setInteractive(true);
        QVERIFY(loaded.wait(60000));
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex row =
            model->findCollection(model->index(0, 0), QStringLiteral("oe_wizard"), collection);
        QVERIFY(row.isValid());
        window.sourceTree()->setCurrentIndex(row);
        QComboBox *mode = window.optionsBar()->modeBox();
        mode->setCurrentIndex(mode->findData(int(AnalysisOptions::Mode::Full)));
        QSignalSpy analysed(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(analysed.wait(120000));
        window.collectionView()->state()->setKeep(10);
    }

    static void driveTo(MigrationWizard &wizard, MigrationWizard::PageId page)
    {
        WizardDriver driver(&wizard, page);
        QSignalSpy reached(&driver, &WizardDriver::reached);
        QSignalSpy failed(&driver, &WizardDriver::failed);
        QTRY_VERIFY_WITH_TIMEOUT(!reached.isEmpty() || !failed.isEmpty(), 240000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    }

private slots:
    void initTestCase()
    {
        m_uri = fixtures::liveUri();
        QVERIFY2(!m_uri.isEmpty(), "no live server fixture (OE_LIVE_DIR/plain/env)");
        m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 300);
        m_collection = QStringLiteral("books_%1").arg(QCoreApplication::applicationPid());
        importBooks(m_collection);
    }

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
        driveTo(wizard, MigrationWizard::LayoutPageId);
        auto *layout = qobject_cast<WizardLayoutPage *>(wizard.currentPage());
        QVERIFY(layout);
        QTRY_VERIFY_WITH_TIMEOUT(!layout->isCheckingServer(), 60000);
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

    // After the wizard's split the window is current: the tree lists the overflow collection
    // (the collection still selected), the split preview uses the names the split used, and
    // once the wizard closes the collection is analysed again (its arrays now at most `keep`).
    void windowFollowsAMigration()
    {
        const QString collection = m_collection + QStringLiteral("_window");
        const QString pages = collection + QStringLiteral("_pages");
        const QString db = QStringLiteral("oe_wizard");
        importBooks(collection);
        MainWindow window;
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        QSignalSpy found(&window, &MainWindow::interruptedMigrationsFound);
        guifixtures::showConnecting(window, m_uri);
        QVERIFY(loaded.wait(60000));
        SourceTreeModel *model = window.sourceModel();
        const auto rowOf = [&](const QString &name) {
            return model->findCollection(model->index(0, 0), db, name);
        };
        QVERIFY(rowOf(collection).isValid());
        QVERIFY(!rowOf(pages).isValid());
        window.sourceTree()->setCurrentIndex(rowOf(collection));
        QComboBox *mode = window.optionsBar()->modeBox();
        mode->setCurrentIndex(mode->findData(int(AnalysisOptions::Mode::Full)));
        QSignalSpy analysed(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(analysed.wait(120000));
        SourceState *state = window.collectionView()->state();
        const std::uint64_t keep = 10;
        state->setKeep(keep);

        MigrationWizard *wizard = window.openMigrationWizard();
        QVERIFY(wizard);
        QSignalSpy planning(wizard->runner(), &MigrationRunner::progressed);
        driveTo(*wizard, MigrationWizard::LayoutPageId);
        qobject_cast<WizardLayoutPage *>(wizard->currentPage())
            ->edit(QStringLiteral("overflow"))
            ->setText(pages);
        driveTo(*wizard, MigrationWizard::SafetyPageId);
        // The preview's plan said how far it had read (the last figure: every document), and
        // its chart never sent the user to run an analysis.
        const SplitPlan &plan = wizard->outcome(MigrationOutcome::Step::Prepare).plan;
        QVERIFY(!planning.isEmpty());
        const auto last = planning.last().first().value<MigrationProgress>();
        QCOMPARE(last.phase, QStringLiteral("planning"));
        QCOMPARE(last.examined, plan.documents);
        QCOMPARE(last.migrated, plan.affected);
        auto *preview =
            qobject_cast<WizardPreviewPage *>(wizard->page(MigrationWizard::PreviewPageId));
        QVERIFY(preview);
        QVERIFY(!preview->progressBar()->isVisible());
        QVERIFY2(!preview->panel()->chart()->emptyText().contains(QStringLiteral("F5")),
                 qPrintable(preview->panel()->chart()->emptyText()));
        auto *safety = qobject_cast<WizardSafetyPage *>(wizard->currentPage());
        safety->confirmEdit()->setText(collection);
        wizard->next();
        auto *apply = qobject_cast<WizardApplyPage *>(wizard->currentPage());
        QVERIFY(apply);
        QTRY_VERIFY_WITH_TIMEOUT(apply->isComplete(), 240000);
        const MigrationOutcome applied = wizard->outcome(MigrationOutcome::Step::Apply);
        QVERIFY2(applied.ok, qPrintable(applied.error.toString()));

        QTRY_VERIFY_WITH_TIMEOUT(rowOf(pages).isValid(), 60000);
        QCOMPARE(model->sourceAt(window.sourceTree()->currentIndex()).collection, collection);
        QCOMPARE(state->splitConfig().overflowCollection, pages);
        // The journal check after the reload offers no resume of this (finished) run; other
        // tests' stopped runs on this server may still be offered.
        QTRY_VERIFY_WITH_TIMEOUT(found.count() >= 2, 60000);
        const QString runs = found.last().at(1).toStringList().join(QLatin1Char(' '));
        QVERIFY2(!runs.contains(db + QLatin1Char('.') + collection + QStringLiteral(" (")),
                 qPrintable(runs));

        QCOMPARE(analysed.count(), 1); // nothing analysed under the open wizard
        wizard->reject();
        QVERIFY(analysed.wait(120000));
        const AnalysisResult after = analysed.last().first().value<AnalysisResult>();
        QCOMPARE(after.request.source.collection, collection);
        QCOMPARE(after.profile.status, CollectionProfile::Status::Complete);
        const FieldProfile *field = after.profile.field(state->path().toStdString());
        QVERIFY(field);
        QVERIFY2(field->lengths.max() <= keep, qPrintable(QString::number(field->lengths.max())));
        QCOMPARE(window.collectionView()->state()->result().profile.documents,
                 after.profile.documents);
    }

    void stopResumeVerifyRollBack()
    {
        const auto originals =
            fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), m_collection);
        QCOMPARE(originals.size(), std::size_t(300));

        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Collection;
        request.source.settings.uri = m_uri;
        request.source.database = QStringLiteral("oe_wizard");
        request.source.collection = m_collection;
        request.selection.mode = AnalysisOptions::Mode::Full;
        Workspace workspace;
        SourceState &state = guifixtures::stateWith(workspace, AnalysisSession::run(request));
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

    // Stop (and Cancel) in the window's wizard: the wizard offers its own Resume, the window
    // offers nothing over it, nor on a later reading of the journals; a restarted window (a new
    // one) offers the run.
    void noResumeOfferForARunStoppedInThisWindow()
    {
        const QString collection = m_collection + QStringLiteral("_stopped");
        importBooks(collection);
        MainWindow window;
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        QSignalSpy found(&window, &MainWindow::interruptedMigrationsFound);
        openAnalysed(window, collection);
        if (QTest::currentTestFailed())
            return;
        // The journals read after the next catalog reading (which starts that check): the
        // readings counted as each catalog lands, so a fast answer is not missed.
        qsizetype foundAtLoad = 0;
        connect(&window, &MainWindow::connectionLoaded, this, [&] { foundAtLoad = found.count(); });
        const auto journalsReadAgain = [&](qsizetype loadedBefore) {
            return QTest::qWaitFor(
                [&] { return loaded.count() > loadedBefore && found.count() > foundAtLoad; },
                60000);
        };
        QPointer<MigrationWizard> wizard = window.openMigrationWizard();
        QVERIFY(wizard);
        driveTo(*wizard, MigrationWizard::SafetyPageId);
        auto *safety = qobject_cast<WizardSafetyPage *>(wizard->currentPage());
        paceSlowly(safety);
        safety->confirmEdit()->setText(collection);
        const qsizetype before = loaded.count();
        wizard->next();
        auto *apply = qobject_cast<WizardApplyPage *>(wizard->currentPage());
        stopAfterTheFirstRound(apply);
        // The stop wrote to the collection: the window reads the catalog and the journals again.
        QVERIFY(journalsReadAgain(before));
        QVERIFY2(!offerOf(window, collection), "the resume offer popped up over the wizard");
        QVERIFY(apply->resumeButton()->isVisible());

        wizard->reject(); // Cancel, the run stopped
        QTRY_VERIFY_WITH_TIMEOUT(!wizard, 60000);
        const qsizetype again = loaded.count();
        for (QAction *action : window.sourceActions(window.sourceModel()->index(0, 0)))
            if (action->text().remove(QLatin1Char('&')).startsWith(QStringLiteral("Refresh")))
                action->trigger();
        QVERIFY(journalsReadAgain(again));
        QVERIFY2(!offerOf(window, collection), "the resume offer came after the wizard closed");

        MainWindow restarted;
        QSignalSpy foundThere(&restarted, &MainWindow::interruptedMigrationsFound);
        guifixtures::showConnecting(restarted, m_uri);
        restarted.setInteractive(true);
        QVERIFY(foundThere.wait(120000));
        QTRY_VERIFY_WITH_TIMEOUT(offerOf(restarted, collection), 10000);
    }

    // The Indexes tab follows the window's split and rollback (the overflow's {link, page}
    // index listed once the split made it, gone with the clean-up), and never contradicts its
    // own explain.
    void indexesFollowASplitAndItsRollback()
    {
        const QString collection = m_collection + QStringLiteral("_indexed");
        const QString overflow = collection + QStringLiteral("_overflow");
        importBooks(collection);
        MainWindow window;
        openAnalysed(window, collection);
        if (QTest::currentTestFailed())
            return;
        window.collectionView()->showTab(QStringLiteral("indexes"));
        IndexesPage *indexes = window.collectionView()->indexes();
        QTRY_VERIFY_WITH_TIMEOUT(indexes->noteText().contains(QStringLiteral("does not exist yet")),
                                 60000);
        const auto overflowIndexes = [&] {
            QStringList names;
            for (int r = 0; r < indexes->indexTable()->rowCount(); ++r)
                if (indexes->indexTable()->item(r, 0)->text() == overflow &&
                    indexes->indexTable()->item(r, 2)->text().contains(
                        QStringLiteral("\"parent_id\"")))
                    names << indexes->indexTable()->item(r, 1)->text();
            return names;
        };

        QPointer<MigrationWizard> wizard = window.openMigrationWizard();
        QVERIFY(wizard);
        driveTo(*wizard, MigrationWizard::SafetyPageId);
        qobject_cast<WizardSafetyPage *>(wizard->currentPage())->confirmEdit()->setText(collection);
        wizard->next();
        auto *apply = qobject_cast<WizardApplyPage *>(wizard->currentPage());
        QTRY_VERIFY_WITH_TIMEOUT(apply->isComplete(), 240000);
        QVERIFY(wizard->outcome(MigrationOutcome::Step::Apply).ok);
        QTRY_VERIFY2_WITH_TIMEOUT(!overflowIndexes().isEmpty(), qPrintable(indexes->noteText()),
                                  60000);
        QVERIFY2(!indexes->noteText().contains(QStringLiteral("does not exist")),
                 qPrintable(indexes->noteText()));

        // Explain: the deep page's plan reads an index the listing above it shows.
        QSignalSpy plans(indexes, &IndexesPage::plansShown);
        QTest::mouseClick(indexes->findChild<QPushButton *>(), Qt::LeftButton);
        QVERIFY(plans.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!indexes->noteText().startsWith(QStringLiteral("Listing")), 60000);
        const QString deep = indexes->planTable()->item(1, 2)->text();
        if (fixtures::LiveServer::open().isMongod())
            QVERIFY2(deep.contains(QStringLiteral("IXSCAN ") + overflowIndexes().value(0)),
                     qPrintable(deep + QStringLiteral(" | ") + overflowIndexes().join(u',')));

        driveTo(*wizard, MigrationWizard::VerifyPageId);
        auto *verify = qobject_cast<WizardVerifyPage *>(wizard->currentPage());
        QTRY_VERIFY_WITH_TIMEOUT(
            verify->isComplete() && wizard->outcome(MigrationOutcome::Step::Verify).ok, 120000);
        verify->rollbackConfirm()->setChecked(true);
        QTest::mouseClick(verify->rollbackButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(verify->isComplete() &&
                                     wizard->outcome(MigrationOutcome::Step::Rollback).step ==
                                         MigrationOutcome::Step::Rollback,
                                 240000);
        QVERIFY(wizard->outcome(MigrationOutcome::Step::Rollback).ok);
        QVERIFY(verify->leftovers()->isVisible());
        QTest::mouseClick(verify->removeLeftoversButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(verify->leftovers()->text().startsWith(QStringLiteral("Removed")),
                                 60000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            indexes->noteText().contains(QStringLiteral("does not exist yet")),
            qPrintable(indexes->noteText()), 60000);
        QVERIFY(overflowIndexes().isEmpty());
        wizard->reject();
    }

    // Closing the app mid-run: the next time the connection opens, the window offers the
    // interrupted run, and the Migrations view resumes, verifies and rolls it back.
    void interruptedRunIsOfferedAndResumed()
    {
        const QString collection = m_collection + QStringLiteral("_again");
        importBooks(collection);
        const auto originals =
            fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), collection);
        Workspace workspace;
        SourceState &state = guifixtures::stateWith(workspace, analyseLive(collection));
        state.setKeep(10);
        const std::uint64_t toSplit = splitAndStop(workspace, state, collection);

        MainWindow window;
        QSignalSpy found(&window, &MainWindow::interruptedMigrationsFound);
        guifixtures::showConnecting(window, m_uri);
        window.setInteractive(true); // the offer is a question to the user
        QVERIFY(found.wait(120000));
        const QStringList runs = found.first().at(1).toStringList();
        QVERIFY2(runs.join(QLatin1Char(' ')).contains(QStringLiteral("oe_wizard.") + collection),
                 qPrintable(runs.join(QLatin1Char(' '))));
        QVERIFY(window.statusText().contains(QStringLiteral("interrupted migration")));

        // The offer's Open, with nothing selected in the tree (as after a restart): Migrations
        // opens on the connection, on the first run the offer names.
        QMessageBox *offer = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((offer = offerOf(window, collection)), 10000);
        window.sourceTree()->setCurrentIndex(QModelIndex());
        const QString first =
            offer->text()
                .section(QLatin1Char('\n'), 1, 1)
                .section(QStringLiteral(" ("), 0, 0); // "db.collection" of the first run listed
        QTest::mouseClick(offer->button(QMessageBox::Open), Qt::LeftButton);
        auto *dialog = window.findChild<MigrationsDialog *>();
        QVERIFY2(dialog, "Open opened no Migrations view");
        QVERIFY(dialog->isVisible());
        QSignalSpy refreshed(dialog, &MigrationsDialog::refreshed);
        QSignalSpy done(dialog, &MigrationsDialog::actionFinished);
        QVERIFY(refreshed.wait(60000));
        auto rowOf = [&] {
            for (int i = 0; i < int(dialog->runs().size()); ++i)
                if (dialog->runs()[std::size_t(i)].config.collection == collection)
                    return i;
            return -1;
        };
        const QModelIndexList selected = dialog->table()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        const MigrationRun &opened = dialog->runs()[std::size_t(selected.first().row())];
        QCOMPARE(opened.database + QLatin1Char('.') + opened.config.collection, first);
        QVERIFY(opened.interrupted());
        int row = rowOf();
        QVERIFY(row >= 0);
        QVERIFY(dialog->runs()[std::size_t(row)].interrupted());
        QVERIFY(dialog->runs()[std::size_t(row)].split > 0);

        // While it runs, the status line carries the step's figures as they come (connected
        // after the dialog's own handler, so this reads what the dialog just wrote).
        QStringList shown, expected;
        connect(dialog->runner(), &MigrationRunner::progressed, dialog,
                [&](const MigrationProgress &p) {
                    shown << dialog->status()->text();
                    expected << QStringLiteral("%1 documents done, %2 elements moved")
                                    .arg(Format::count(p.migrated), Format::count(p.elementsMoved));
                });
        dialog->resume(row);
        QVERIFY(done.wait(240000));
        QVERIFY(!shown.isEmpty());
        for (int i = 0; i < shown.size(); ++i)
            QVERIFY2(shown[i].contains(expected[i]) &&
                         shown[i].contains(QStringLiteral("oe_wizard.") + collection),
                     qPrintable(shown[i] + QStringLiteral(" | expected ") + expected[i]));
        QVERIFY2(done.last().first().value<MigrationOutcome>().ok,
                 qPrintable(done.last().first().value<MigrationOutcome>().error.toString()));
        QVERIFY(refreshed.wait(60000));
        row = rowOf();
        QCOMPARE(dialog->runs()[std::size_t(row)].state, RunState::Applied);
        QCOMPARE(dialog->runs()[std::size_t(row)].split, toSplit);
        QCOMPARE(dialog->runs()[std::size_t(row)].pending, std::uint64_t(0));

        dialog->verify(row);
        QVERIFY(done.wait(120000));
        const MigrationOutcome verified = done.last().first().value<MigrationOutcome>();
        QVERIFY(verified.ok);
        QCOMPARE(verified.verify.checked, toSplit);
        QCOMPARE(verified.verify.mismatches, std::uint64_t(0));
        QVERIFY(refreshed.wait(60000));

        dialog->rollback(rowOf(), false);
        QVERIFY(done.wait(240000));
        QVERIFY(done.last().first().value<MigrationOutcome>().ok);
        QVERIFY(refreshed.wait(60000));
        QCOMPARE(dialog->runs()[std::size_t(rowOf())].state, RunState::RolledBack);
        QVERIFY(fixtures::readCollection(m_uri, QStringLiteral("oe_wizard"), collection) ==
                originals);
    }
};

QTEST_MAIN(TestMigrationWizardLive)
#include "tst_migrationwizardlive.moc"
