// The migration wizard in the main window against a real server (mongod; FerretDB as the
// compatibility server): a run stopped in the window's wizard is offered by no window but a
// restarted one; after the wizard's split the tree, the split preview and the analysis follow
// it; the Indexes tab follows a split and its rollback; an app closed mid-run offers the
// interrupted run, and the Migrations view resumes, verifies and rolls it back to the
// originals. The wizard's own pages: tst_migrationwizardlivepages.
#include "GuiFixtures.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "WizardLiveFixture.h"
#include "charts/Format.h"
#include "charts/HistogramChart.h"
#include "dialogs/MigrationsDialog.h"
#include "explorer/MainWindow.h"
#include "jobs/MigrationRunner.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/IndexesPage.h"
#include "widgets/ChartPanel.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardApplyPage.h"
#include "wizard/WizardLayoutPage.h"
#include "wizard/WizardPreviewPage.h"
#include "wizard/WizardSafetyPage.h"
#include "wizard/WizardVerifyPage.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"
#include <QProgressBar>
#include <QTableWidget>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeView>
#include <QtTest>

using namespace oe;

class TestMigrationWizardLiveWindow : public QObject, protected WizardLiveFixture
{
    Q_OBJECT

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

private slots:
    void initTestCase() { setUpBooks(); }

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

QTEST_MAIN(TestMigrationWizardLiveWindow)
#include "tst_migrationwizardlivewindow.moc"
