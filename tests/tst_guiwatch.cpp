// Trends and Watch in the window, against mongod: Trends charts a collection's analyses from the
// history (the CLI's and the window's, the same figures as the runs), forecasts the document
// that grew between them and compares the two runs; Watch lists a document the moment a check
// finds it over the size threshold, notifies, and opens it on a double-click; on a replica set
// (a change stream) the watch ends, saying so, when its collection is dropped. The Shape tab's
// Guard type… plans, applies and removes a type guard on a mixed-type field. (The remedies'
// Rewrite… and the wizard's remedy page: tst_guiremedy.)
#include "CliRunner.h"
#include "GuiFixtures.h"
#include "GuiLiveBench.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "charts/Format.h"
#include "charts/TrendsChart.h"
#include "dialogs/RewriteDialog.h"
#include "dialogs/TrendsDialog.h"
#include "dialogs/TypeGuardDialog.h"
#include "dialogs/WatchDialog.h"
#include "explore/AnalysisSession.h"
#include "explorer/MainWindow.h"
#include "history/HistoryStore.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/OverviewPage.h"
#include "pages/ShapePage.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardAnalysisPage.h"
#include "wizard/WizardRemedyPage.h"
#include "workspace/SourceState.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace oe;

class TestGuiWatch : public QObject, public GuiLiveBench
{
    Q_OBJECT

    QTemporaryDir m_dir;

    bool pushTo(const QString &id, int elements) const
    {
        QStringList items;
        for (int i = 0; i < elements; ++i)
            items << QStringLiteral("{\"customer\": \"c%1\", \"note\": \"%2\"}")
                         .arg(i)
                         .arg(QString(40, QLatin1Char('n')));
        QString error;
        return fixtures::command(
            m_uri, m_db,
            QStringLiteral("{\"update\": \"books\", \"updates\": [{\"q\": {\"_id\": \"%1\"}, "
                           "\"u\": {\"$push\": {\"customers_purchased\": {\"$each\": [%2]}}}, "
                           "\"upsert\": true}]}")
                .arg(id, items.join(QLatin1Char(',')))
                .toUtf8(),
            &error);
    }
    // The window connected, oe_trends.books selected.
    bool showBooks(MainWindow &window) const
    {
        return showCollection(window, m_uri, QStringLiteral("trends"), m_db,
                              QStringLiteral("books"));
    }

public:
    TestGuiWatch() : GuiLiveBench(QStringLiteral("oe_trends")) {}

    // The window on `collection`, analysed; its Shape tab's mixed_types flag of price chosen
    // and Guard type… clicked: the dialog, or null.
    TypeGuardDialog *openTypeGuard(MainWindow &window, const QString &collection) const
    {
        ShapePage *shape = shapeOf(window, collection);
        const int row =
            shape ? flagRow(shape, QStringLiteral("mixed_types"), QStringLiteral("price")) : -1;
        if (row < 0)
            return nullptr;
        shape->flagsTable()->setCurrentCell(row, 0);
        if (!shape->typeGuardButton()->isEnabled())
            return nullptr;
        QTest::mouseClick(shape->typeGuardButton(), Qt::LeftButton);
        TypeGuardDialog *dialog = nullptr;
        // Null when the dialog never opened: the caller's check fails.
        if (!QTest::qWaitFor(
                [&] { return (dialog = window.findChild<TypeGuardDialog *>()) != nullptr; }))
            return nullptr;
        return dialog;
    }

private slots:
    void initTestCase()
    {
        qputenv("OE_HISTORY_DB", m_dir.filePath(QStringLiteral("history.sqlite")).toUtf8());
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        const QString dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 300);
        const CliRun r = runCli({QStringLiteral("import"), QStringLiteral("--uri"), m_uri,
                                 QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                                 QStringLiteral("books"), QStringLiteral("--dump"), dump,
                                 QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(pushTo(QStringLiteral("grower"), 2000)); // the largest document, and growing
    }

    // Two analyses kept a day apart (as a cron job's would be), then a CLI one and a window one,
    // the document growing between them: Trends shows the four runs, their figures, and the
    // forecast of the document that grew, with its uncertainty.
    void trendsChartsTheHistory()
    {
        for (int daysAgo : {2, 1}) {
            AnalysisRequest request;
            request.source.kind = SourceRef::Kind::Collection;
            request.source.settings.uri = m_uri;
            request.source.database = m_db;
            request.source.collection = QStringLiteral("books");
            request.source.connectionName = QStringLiteral("trends");
            request.selection.mode = AnalysisOptions::Mode::Full;
            const AnalysisResult result = AnalysisSession::run(request);
            HistoryStore store;
            QVERIFY(store.record(request.source, result.profile, result.outliers, &result.shape,
                                 QStringLiteral("cli"),
                                 QDateTime::currentDateTimeUtc().addDays(-daysAgo)));
            QVERIFY(pushTo(QStringLiteral("grower"), 1000));
        }
        const CliRun cli = runCli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_uri,
                                   QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                                   QStringLiteral("books"), QStringLiteral("--full"),
                                   QStringLiteral("--out"), m_dir.filePath(QStringLiteral("r"))});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY(pushTo(QStringLiteral("grower"), 1000));
        MainWindow window;
        QVERIFY(showBooks(window));
        QVERIFY(analyseWhole(window));

        // The Overview says the same growth, from the same history (this run included).
        QTRY_VERIFY_WITH_TIMEOUT(window.collectionView()->overview()->growth()->text().startsWith(
                                     QStringLiteral("Growth: largest document: +")),
                                 30000);
        // And so does the report.
        QSignalSpy exported(&window, &MainWindow::reportExported);
        const QString report = m_dir.filePath(QStringLiteral("report.html"));
        window.exportReport(report);
        QVERIFY(exported.wait(60000));
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(html.readAll());
        QVERIFY2(text.contains(QStringLiteral("<h2>Growth forecast</h2>")) &&
                     text.contains(QStringLiteral("_id &quot;grower&quot;: +")),
                 qPrintable(text.left(3000)));

        TrendsDialog *trends = window.openTrends();
        QVERIFY(trends);
        QSignalSpy loaded(trends, &TrendsDialog::loaded);
        QVERIFY(loaded.wait(30000) || !trends->data().runs.empty());
        const std::vector<HistoryRun> &runs = trends->data().runs;
        QCOMPARE(runs.size(), std::size_t(4));
        QCOMPARE(runs[2].origin, QStringLiteral("cli"));
        QCOMPARE(runs[3].origin, QStringLiteral("gui"));
        for (std::size_t i = 1; i < runs.size(); ++i)
            QVERIFY(runs[i].sizeMax >= runs[i - 1].sizeMax);
        QCOMPARE(trends->sizesChart()->seriesCount(), 3);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(trends->sizesChart()->valueAt(2, i), double(runs[std::size_t(i)].sizeMax));
            QCOMPARE(trends->sizesChart()->valueAt(1, i), double(runs[std::size_t(i)].sizeP99));
        }
        QVERIFY(trends->arraysChart()->seriesCount() >= 1);
        QCOMPARE(trends->runsTable()->rowCount(), 4);
        // The document that grew is forecast, with the slope's interval (four points).
        const QString forecast = trends->forecastLabel()->text();
        QVERIFY2(forecast.contains(QStringLiteral("_id &quot;grower&quot;: +")) &&
                     forecast.contains(QStringLiteral("16.00 MiB about")) &&
                     !forecast.contains(QStringLiteral("no uncertainty stated")),
                 qPrintable(forecast));
        QVERIFY(trends->data().forecast.largest.uncertaintyKnown);
        trends->compare(0, 3);
        QVERIFY(trends->comparison()->isVisible());
        bool largest = false;
        for (int row = 0; row < trends->comparison()->rowCount(); ++row)
            if (trends->comparison()->item(row, 0)->text() == QStringLiteral("largest document"))
                largest = trends->comparison()->item(row, 3)->text().startsWith(QLatin1Char('+'));
        QVERIFY(largest);
        trends->resize(1000, 820);
        saveScreenshot(trends, QStringLiteral("trends.png"));
    }

    // Watch (a standalone mongod: the periodic check): the document pushed past the size
    // threshold is listed, notified, and opens on a double-click.
    void watchListsACrossingAndOpensIt()
    {
        MainWindow window;
        QVERIFY(showBooks(window));
        QVERIFY(analyseWhole(window));
        const SourceState *state = window.collectionView()->state();
        const std::uint64_t largest = state->analysis().profile.sizes.max();

        WatchDialog *watch = window.openWatch();
        QVERIFY(watch);
        QCOMPARE(watch->options().field, state->path()); // the state's thresholds
        QCOMPARE(watch->options().keep, state->keep());
        watch->findChild<QLineEdit *>()->clear(); // the array: not watched here
        const QList<QSpinBox *> boxes = watch->findChildren<QSpinBox *>();
        boxes[0]->setValue(int(largest)); // size: over the largest document now
        boxes[2]->setValue(1);            // check every second
        QSignalSpy notified(watch, &WatchDialog::notified);
        watch->start();
        QTRY_VERIFY_WITH_TIMEOUT(
            watch->status()->text().contains(QStringLiteral("no change stream on this server")),
            30000);
        QTest::qWait(1500); // a check or two with nothing over
        QCOMPARE(watch->events()->rowCount(), 0);
        QVERIFY(pushTo(QStringLiteral("grower"), 10));
        QTRY_VERIFY_WITH_TIMEOUT(watch->events()->rowCount() == 1, 15000);
        QCOMPARE(watch->events()->item(0, 1)->text(), QStringLiteral("\"grower\""));
        QCOMPARE(watch->events()->item(0, 5)->text(), QStringLiteral("size"));
        QCOMPARE(notified.count(), 1);
        watch->resize(900, 560);
        saveScreenshot(watch, QStringLiteral("watch.png"));

        emit watch->events()->cellDoubleClicked(0, 1);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.statusText().contains(QStringLiteral("Opened document \"grower\"")), 30000);
        watch->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!watch->isWatching(), 15000);
    }

    // Shape tab → the mixed-type price → Guard type…: the dialog suggests the field's own types,
    // counts and lists the documents breaking them before anything is written (the same count
    // as the CLI's dry run), applies the guard with error (a write of another type is refused,
    // the documents listed stay writable), and removes it again.
    // A collection whose own validator refuses writes and checks every write (strict, error):
    // the type guard opens on error and strict (the collection's, which a guard never lowers),
    // says what strict means for the documents over it, applies, and gives the options back
    // (issue 53, defect 8: it opened on warn, refused, with no level to choose).
    void typeGuardOnAStrictCollection()
    {
        QString error;
        QVERIFY2(fixtures::command(m_uri, m_db,
                                   QByteArray("{\"create\": \"strictprices\", \"validator\": "
                                              "{\"name\": {\"$type\": \"string\"}}, "
                                              "\"validationLevel\": \"strict\", "
                                              "\"validationAction\": \"error\"}"),
                                   &error),
                 qPrintable(error));
        QStringList docs;
        for (int i = 0; i < 60; ++i)
            docs
                << (i % 20 == 7
                        ? QStringLiteral("{\"_id\": %1, \"name\": \"n\", \"price\": \"%1.50\"}")
                              .arg(i)
                        : QStringLiteral("{\"_id\": %1, \"name\": \"n\", \"price\": %1.5}").arg(i));
        QVERIFY2(fixtures::command(m_uri, m_db,
                                   QStringLiteral("{\"insert\": \"strictprices\", \"documents\": "
                                                  "[%1]}")
                                       .arg(docs.join(QLatin1Char(',')))
                                       .toUtf8(),
                                   &error),
                 qPrintable(error));
        MainWindow window;
        TypeGuardDialog *dialog = openTypeGuard(window, QStringLiteral("strictprices"));
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->applyButton()->isEnabled(), 30000);
        QCOMPARE(dialog->actionBox()->currentIndex(), 1); // error: the collection's
        QCOMPARE(dialog->levelBox()->currentIndex(), 1);  // strict: the collection's
        QCOMPARE(dialog->plan().ruleConflicts, 3);
        QVERIFY2(dialog->status()->text().contains(QStringLiteral("validationLevel strict, "
                                                                  "validationAction error")),
                 qPrintable(dialog->status()->text()));
        bool explained = false;
        for (const QLabel *label : dialog->findChildren<QLabel *>())
            explained = explained || label->text().contains(QStringLiteral(
                                         "under validationLevel strict an update of one of them "
                                         "is checked too"));
        QVERIFY(explained);
        // Moderate is below the collection's strict, which the guard keeps: the documents over
        // it could not be updated, and the plan says to choose strict for that, in the box
        // that is there now.
        dialog->levelBox()->setCurrentIndex(0);
        QVERIFY(!dialog->applyButton()->isEnabled());
        QSignalSpy planned(dialog, &TypeGuardDialog::planned);
        dialog->checkButton()->click();
        QVERIFY(planned.wait(30000));
        QVERIFY(!dialog->applyButton()->isEnabled());
        QVERIFY2(dialog->status()->text().contains(QStringLiteral("choose strict to accept that")),
                 qPrintable(dialog->status()->text()));
        dialog->levelBox()->setCurrentIndex(1);
        dialog->checkButton()->click();
        QVERIFY(planned.wait(30000));
        QVERIFY(dialog->applyButton()->isEnabled());
        QCOMPARE(dialog->plan().decision.level, ValidationLevel::Strict);
        QSignalSpy finished(dialog, &TypeGuardDialog::finished);
        dialog->applyButton()->click();
        QVERIFY(finished.wait(30000));
        QVERIFY2(finished.first().first().value<GuardOutcome>().ok,
                 qPrintable(dialog->status()->text()));
        QByteArray reply;
        QVERIFY(!fixtures::command(m_uri, m_db,
                                   QByteArray("{\"insert\": \"strictprices\", \"documents\": "
                                              "[{\"name\": \"x\", \"price\": \"free\"}]}"),
                                   &error, &reply));
        QVERIFY(reply.contains("Document failed validation"));
        dialog->removeButton()->click();
        QVERIFY(finished.wait(30000));
        QVERIFY2(finished.last().first().value<GuardOutcome>().removed,
                 qPrintable(dialog->status()->text()));
    }

    void typeGuardFromTheShapeTab()
    {
        QStringList docs;
        for (int i = 0; i < 60; ++i)
            docs << (i % 20 == 7 ? QStringLiteral("{\"_id\": %1, \"price\": \"%1.50\"}").arg(i)
                                 : QStringLiteral("{\"_id\": %1, \"price\": %1.5}").arg(i));
        QString error;
        QVERIFY2(fixtures::command(m_uri, m_db,
                                   QStringLiteral("{\"insert\": \"prices\", \"documents\": [%1]}")
                                       .arg(docs.join(QLatin1Char(',')))
                                       .toUtf8(),
                                   &error),
                 qPrintable(error));
        MainWindow window;
        TypeGuardDialog *dialog = openTypeGuard(window, QStringLiteral("prices"));
        QVERIFY(dialog);
        QCOMPARE(dialog->typesEdit()->text(), QStringLiteral("double"));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->plan().ruleConflicts >= 0, 30000);
        QCOMPARE(dialog->plan().ruleConflicts, 3);
        QCOMPARE(dialog->violations()->rowCount(), 3);
        QCOMPARE(dialog->violations()->item(0, 0)->text(), QStringLiteral("7"));
        QCOMPARE(dialog->violations()->item(0, 1)->text(), QStringLiteral("string"));
        QVERIFY(dialog->applyButton()->isEnabled());
        const CliRun cli =
            runCli({QStringLiteral("guard"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
                    m_db, QStringLiteral("--collection"), QStringLiteral("prices"),
                    QStringLiteral("--type-of"), QStringLiteral("price"), QStringLiteral("--types"),
                    QStringLiteral("double"), QStringLiteral("--dry-run")});
        QVERIFY2(cli.out.contains(QStringLiteral("documents breaking price is double: 3\n")),
                 qPrintable(cli.out + cli.err));

        dialog->actionBox()->setCurrentIndex(1);      // error
        QVERIFY(!dialog->applyButton()->isEnabled()); // planned for warn: check again first
        QSignalSpy planned(dialog, &TypeGuardDialog::planned);
        dialog->checkButton()->click();
        QVERIFY(planned.wait(30000));
        QVERIFY(dialog->commandView()->toPlainText().contains(QStringLiteral("\"error\"")));
        QSignalSpy finished(dialog, &TypeGuardDialog::finished);
        dialog->applyButton()->click();
        QVERIFY(finished.wait(30000));
        QVERIFY2(finished.first().first().value<GuardOutcome>().ok,
                 qPrintable(dialog->status()->text()));
        QByteArray reply;
        QVERIFY(!fixtures::command(
            m_uri, m_db,
            QByteArray("{\"insert\": \"prices\", \"documents\": [{\"price\": \"free\"}]}"), &error,
            &reply));
        QVERIFY(reply.contains("Document failed validation"));
        QVERIFY2(fixtures::command(m_uri, m_db,
                                   QByteArray("{\"update\": \"prices\", \"updates\": [{\"q\": "
                                              "{\"_id\": 7}, \"u\": {\"$set\": {\"seen\": 1}}}]}"),
                                   &error),
                 qPrintable(error));
        dialog->resize(780, 560);
        saveScreenshot(dialog, QStringLiteral("type-guard.png"));
        dialog->removeButton()->click();
        QVERIFY(finished.wait(30000));
        QVERIFY2(finished.last().first().value<GuardOutcome>().removed,
                 qPrintable(dialog->status()->text()));
        QVERIFY2(fixtures::command(
                     m_uri, m_db,
                     QByteArray("{\"insert\": \"prices\", \"documents\": [{\"price\": \"free\"}]}"),
                     &error),
                 qPrintable(error));
    }

    // Watch on a replica set (a change stream), driven by its buttons: the collection dropped,
    // the dialog says so and stops (Start is back, nothing is retried).
    void watchEndsWhenTheCollectionIsDropped()
    {
        const fixtures::LiveServer replset = fixtures::LiveServer::open(QStringLiteral("replset"));
        QVERIFY2(replset.isValid(), qPrintable(replset.missing()));
        const QString uri = replset.uri(), db = QStringLiteral("oe_guiwatch_gone");
        QString error;
        for (const char *collection : {"doomed", "keeper"}) // the database stays
            QVERIFY2(fixtures::command(uri, db,
                                       QByteArray("{\"insert\": \"") + collection +
                                           "\", \"documents\": [{\"n\": 1}]}",
                                       &error),
                     qPrintable(error));
        MainWindow window;
        QVERIFY(
            showCollection(window, uri, QStringLiteral("replset"), db, QStringLiteral("doomed")));
        WatchDialog *watch = window.openWatch();
        QVERIFY(watch);
        watch->findChild<QLineEdit *>()->clear();
        watch->findChildren<QSpinBox *>()[0]->setValue(1000000);
        QTest::mouseClick(watch->startButton(), Qt::LeftButton);
        QVERIFY(watch->isWatching());
        QVERIFY(!watch->startButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(
            watch->status()->text().contains(QStringLiteral("with a change stream")), 60000);

        QVERIFY2(fixtures::command(uri, db, QByteArray("{\"drop\": \"doomed\"}"), &error),
                 qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(!watch->isWatching(), qPrintable(watch->status()->text()), 60000);
        QCOMPARE(watch->status()->text(),
                 QStringLiteral("The watch ended: \"oe_guiwatch_gone.doomed\" was dropped"));
        QVERIFY(watch->startButton()->isEnabled());
        QVERIFY(!watch->stopButton()->isEnabled());
    }
};

QTEST_MAIN(TestGuiWatch)
#include "tst_guiwatch.moc"
