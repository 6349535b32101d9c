// The explorer against a live server (mongod, and FerretDB): name the server, browse the
// catalog (a name is one connection; the tree follows the server), analyse a collection (equal
// to the analysis of the dump it was imported from, also in parallel ranges; the Overview's
// figures those of the CLI's analysis of the same collection), open an outlier by _id. The
// Documents tab, a split document's read path and a server gone mid-scan:
// tst_guilivedocuments.cpp.
#include "CsvTestReader.h"
#include "GuiFixtures.h"
#include "GuiLiveFixture.h"
#include "LiveDocuments.h"
#include "SummaryCsv.h"
#include "connection/ConnectionDialog.h"
#include "explorer/MainWindow.h"
#include "jobs/DocumentLoader.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/OverviewPage.h"
#include "scan/ScanCheckpoint.h"

#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QTreeView>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace oe;

class TestGuiLive : public QObject, private GuiLiveFixture
{
    Q_OBJECT

public:
    TestGuiLive() : GuiLiveFixture(QStringLiteral("oe_gui")) {}

private:
    // The Overview's worst array paths against the CLI's fields.csv: the longest arrays (at most
    // 8 shown, none left out longer than one shown), each with its len_max and len_p99.
    static void compareWorstArrayPaths(const OverviewPage *overview, const QString &fieldsCsv)
    {
        QList<QStringList> fields = csvtest::readFile(fieldsCsv);
        QVERIFY(!fields.isEmpty());
        const QStringList header = fields.takeFirst();
        const qsizetype path = header.indexOf(QStringLiteral("path")),
                        arrays = header.indexOf(QStringLiteral("arrays")),
                        max = header.indexOf(QStringLiteral("len_max")),
                        p99 = header.indexOf(QStringLiteral("len_p99"));
        std::map<QString, QStringList> arrayPaths;
        for (const QStringList &row : fields)
            if (row.value(arrays) != QLatin1String("0"))
                arrayPaths[row.value(path)] = row;
        const auto *table = overview->findChild<QTableWidget *>();
        QVERIFY(table);
        QVERIFY(table->rowCount() > 0);
        QCOMPARE(qsizetype(table->rowCount()),
                 std::min(qsizetype(8), qsizetype(arrayPaths.size())));
        qulonglong shortestShown = ~0ull;
        for (int r = 0; r < table->rowCount(); ++r) {
            QVERIFY(table->item(r, 0) && table->item(r, 1) && table->item(r, 2));
            const QString shown = table->item(r, 0)->text();
            const QStringList row = arrayPaths[shown];
            const QString cells = QStringLiteral("%1: max %2, p99 %3");
            QCOMPARE(cells.arg(shown, guifixtures::asCsvNumber(table->item(r, 1)->text()),
                               guifixtures::asCsvNumber(table->item(r, 2)->text())),
                     cells.arg(shown, row.value(max), row.value(p99)));
            shortestShown = std::min(shortestShown, row.value(max).toULongLong());
            arrayPaths.erase(shown);
        }
        for (const auto &[unshown, row] : arrayPaths)
            QVERIFY2(row.value(max).toULongLong() <= shortestShown, qPrintable(unshown));
    }

    // No system.* collection is offered (admin.system.version, system.users: no application
private slots:
    void initTestCase() { openServerWithFeeds(); }

    void testConnectionNamesTheServer()
    {
        ConnectionDialog dialog(nullptr);
        dialog.setUri(m_uri);
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        QSignalSpy tested(&dialog, &ConnectionDialog::testFinished);
        dialog.testConnection();
        QVERIFY(tested.wait(60000));
        const QString text = tested.first().at(1).toString();
        QVERIFY2(tested.first().first().toBool(), qPrintable(text));
        // FerretDB 1.x lacks $sample: it is named, with the note that samples are drawn
        // client-side. mongod is MongoDB, with $sample, and no such note.
        const QString fallback = QStringLiteral("$sample is not supported");
        if (m_server.isFerretDb()) {
            QVERIFY2(text.contains(QStringLiteral("FerretDB")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("$sample no")), qPrintable(text));
            QVERIFY2(text.contains(fallback), qPrintable(text));
        } else {
            QVERIFY2(m_server.isMongod(),
                     qPrintable(m_server.value(QStringLiteral("OE_TEST_SERVER"))));
            QVERIFY2(text.contains(QStringLiteral(": MongoDB ")), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("FerretDB")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("$sample yes")), qPrintable(text));
            QVERIFY2(!text.contains(fallback), qPrintable(text));
        }
    }

    // A name is one connection: a retry after a failure, and the same connection twice,
    // reconnect its row with the settings given (before, a second row stayed "Connecting…"
    // and the retry was made with the first row's settings, and failed).
    void connectingAgainReconnectsTheSameRow()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        const QString name = QStringLiteral("retry");
        ConnectionSettings wrong;
        wrong.uri = QStringLiteral("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300");
        wrong.serverSelectionTimeoutMs = 300;
        wrong.connectTimeoutMs = 300;
        window.addConnection(name, wrong);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(loaded.takeFirst().at(1).toBool(), false);

        ConnectionSettings right;
        right.uri = m_uri;
        for (int attempt = 0; attempt < 2; ++attempt) { // the retry, then the same URI again
            window.addConnection(name, right);
            QVERIFY(loaded.wait(60000));
            const QList<QVariant> answer = loaded.takeFirst();
            QCOMPARE(answer.at(0).toString(), name);
            QVERIFY2(answer.at(1).toBool(), qPrintable(window.lastError()));
            SourceTreeModel *model = window.sourceModel();
            QModelIndex conn;
            int rows = 0;
            for (int row = 0; row < model->rowCount(); ++row)
                if (model->index(row, 0).data().toString() == name) {
                    conn = model->index(row, 0);
                    ++rows;
                }
            QCOMPARE(rows, 1);
            QCOMPARE(model->settingsOf(conn).uri, m_uri);
            QVERIFY(model->findCollection(conn, QStringLiteral("oe_gui"), QStringLiteral("feeds"))
                        .isValid());
        }
        QVERIFY(!loaded.wait(500)); // and nothing else is still connecting
        // Its context menu (on any row under it): Refresh lists it again, Rename, Disconnect
        // closes it.
        {
            SourceTreeModel *m = window.sourceModel();
            const QModelIndex conn0 = m->index(0, 0);
            const QModelIndex db = m->index(0, 0, conn0);
            QList<QAction *> actions = window.sourceActions(db);
            QCOMPARE(actions.size(), 3);
            QCOMPARE(actions[0]->text().remove(QLatin1Char('&')), QStringLiteral("Refresh"));
            QCOMPARE(actions[1]->text().remove(QLatin1Char('&')), QStringLiteral("Rename…"));
            QCOMPARE(actions[2]->text().remove(QLatin1Char('&')), QStringLiteral("Disconnect"));
            actions[0]->trigger();
            QVERIFY(loaded.wait(60000));
            QCOMPARE(loaded.takeFirst().at(1).toBool(), true);
        }
        SourceTreeModel *model = window.sourceModel();
        QModelIndex conn;
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->index(row, 0).data().toString() == name)
                conn = model->index(row, 0);
        checkCatalogRows(model, conn);
        const QList<QAction *> actions = window.sourceActions(conn);
        QCOMPARE(actions.size(), 3);
        actions[2]->trigger(); // Disconnect
        QCOMPARE(model->rowCount(), 0);
    }

    void browseAnalyseAndOpen()
    {
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));

        SourceTreeModel *model = window.sourceModel();
        const QModelIndex conn = model->index(0, 0);
        const QModelIndex feeds =
            model->findCollection(conn, QStringLiteral("oe_gui"), QStringLiteral("feeds"));
        QVERIFY(feeds.isValid());
        QCOMPARE(
            model->index(feeds.row(), SourceTreeModel::Documents, feeds.parent()).data().toString(),
            QLocale().toString(qlonglong(m_ref.size())));

        window.sourceTree()->setCurrentIndex(feeds);
        window.optionsBar()->modeBox()->setCurrentIndex(
            window.optionsBar()->modeBox()->findData(int(AnalysisOptions::Mode::Full)));
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(120000));
        const AnalysisResult live = finished.first().first().value<AnalysisResult>();
        QCOMPARE(live.profile.status, CollectionProfile::Status::Complete);
        const AnalysisResult offline = guifixtures::analyse(m_dump);
        QCOMPARE(live.profile.documents, offline.profile.documents);
        QCOMPARE(live.profile.sizes.max(), offline.profile.sizes.max());
        QCOMPARE(live.profile.sizes.sum(), offline.profile.sizes.sum());
        QCOMPARE(live.outliers.rows.size(), offline.outliers.rows.size());

        // An outlier, fetched from the server by its _id, is the document of the dump.
        QVERIFY(!live.outliers.rows.empty());
        const OutlierRow &row = live.outliers.rows.front();
        DocumentLoader loader;
        QSignalSpy got(&loader, &DocumentLoader::loaded);
        QSignalSpy failed(&loader, &DocumentLoader::failed);
        loader.load(live.request.source, row.docIndex, row.id);
        QTRY_VERIFY_WITH_TIMEOUT(got.count() + failed.count() > 0, 60000);
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        const QByteArray doc = got.first().first().toByteArray();
        std::uint32_t expected = 0;
        for (const auto &d : m_ref)
            if (d.id == row.id)
                expected = d.size;
        QCOMPARE(std::uint32_t(doc.size()), expected);

        // A filter that is not JSON is refused before anything runs.
        window.optionsBar()->filterEdit()->setText(QStringLiteral("{not json"));
        QVERIFY(!window.optionsBar()->problem().isEmpty());
        QVERIFY(!window.optionsBar()->runButton()->isEnabled());
        // A valid one narrows the analysis on the server.
        window.optionsBar()->filterEdit()->setText(QStringLiteral("{\"_id\": %1}").arg(row.id));
        QVERIFY(window.optionsBar()->problem().isEmpty());
        QSignalSpy again(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(again.wait(120000));
        QCOMPARE(again.first().first().value<AnalysisResult>().profile.documents, std::uint64_t(1));
    }

    // The Overview after a full scan shows the figures of `analyze --full` of the same
    // collection (the CLI, a separate process): counts number for number with summary.csv,
    // sizes within the rounding of the one decimal shown, and the worst array paths with
    // fields.csv.
    void overviewShowsTheCliFigures()
    {
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        window.optionsBar()->setMode(AnalysisOptions::Mode::Full);
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY_WITH_TIMEOUT(window.collectionView()->isApplied(), 10000);
        const OverviewPage *overview = window.collectionView()->overview();

        const QString out = m_dir.filePath(QStringLiteral("cli-overview"));
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("analyze"), QStringLiteral("--uri"), m_uri,
                   QStringLiteral("--db"), QStringLiteral("oe_gui"), QStringLiteral("--collection"),
                   QStringLiteral("feeds"), QStringLiteral("--full"), QStringLiteral("--out"), out,
                   QStringLiteral("--quiet")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const auto summary = fixtures::SummaryCsv::read(out);
        QCOMPARE(finished.first().first().value<AnalysisResult>().profile.mode,
                 summary.value(QStringLiteral("mode")));

        QCOMPARE(guifixtures::asCsvNumber(overview->valueText(QStringLiteral("Documents"))),
                 summary.value(QStringLiteral("documents")));
        for (const auto &[key, metric] :
             {std::pair{"Size p50", "size_p50"}, std::pair{"Size p99", "size_p99"},
              std::pair{"Largest", "size_max"}}) {
            const QString shown = overview->valueText(QLatin1String(key));
            const QString cliValue = summary.value(QLatin1String(metric));
            QVERIFY2(
                guifixtures::showsBytes(shown, cliValue.toULongLong()),
                qPrintable(QStringLiteral("%1 shows %2, the CLI's %3 is %4")
                               .arg(QLatin1String(key), shown, QLatin1String(metric), cliValue)));
        }
        const QRegularExpressionMatch over =
            QRegularExpression(QStringLiteral("^(.+) \\((.+) %\\)$"))
                .match(overview->valueText(QStringLiteral("Over 8 MiB")));
        QVERIFY2(over.hasMatch(), qPrintable(overview->valueText(QStringLiteral("Over 8 MiB"))));
        QCOMPARE(guifixtures::asCsvNumber(over.captured(1)),
                 summary.value(QStringLiteral("documents_over_half_16mib")));
        const QRegularExpressionMatch outliers =
            QRegularExpression(QStringLiteral("^(.+) \\((.+) by size, (.+) by array\\)$"))
                .match(overview->valueText(QStringLiteral("Outlier documents")));
        QVERIFY2(outliers.hasMatch(),
                 qPrintable(overview->valueText(QStringLiteral("Outlier documents"))));
        QCOMPARE(guifixtures::asCsvNumber(outliers.captured(1)),
                 summary.value(QStringLiteral("outlier_documents")));
        QCOMPARE(guifixtures::asCsvNumber(outliers.captured(2)),
                 summary.value(QStringLiteral("size_outliers")));
        QCOMPARE(guifixtures::asCsvNumber(outliers.captured(3)),
                 summary.value(QStringLiteral("array_outliers")));

        compareWorstArrayPaths(overview, out + QStringLiteral("/fields.csv"));
    }

    // Ranges: the option is there for a collection's full scan only, and the parallel scan
    // gives the figures of the single cursor, its plan shown under the headline.
    void parallelFullScan()
    {
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        AnalysisOptionsBar *bar = window.optionsBar();
        bar->modeBox()->setCurrentIndex(
            bar->modeBox()->findData(int(AnalysisOptions::Mode::Sample)));
        QVERIFY(!bar->parallelBox()->isEnabled());
        bar->modeBox()->setCurrentIndex(bar->modeBox()->findData(int(AnalysisOptions::Mode::Full)));
        QVERIFY(bar->parallelBox()->isEnabled());
        bar->parallelBox()->setValue(3);
        // Measured here, like the dump it is compared with: on the server, fields deeper than one
        // level inside an array are not measured.
        bar->measureBox()->setCurrentIndex(bar->measureBox()->findData(int(MeasureMode::Client)));
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(120000));
        const AnalysisResult ranged = finished.first().first().value<AnalysisResult>();
        QCOMPARE(ranged.profile.status, CollectionProfile::Status::Complete);
        QCOMPARE(ranged.request.parallelRanges, 3);
        // The window holds the result: the scan's saved state is released, not left behind.
        QVERIFY(!ranged.profile.keptState.isEmpty());
        QVERIFY(!QFile::exists(ScanCheckpoint::pathFor(ranged.profile.keptState)));
        QVERIFY2(ranged.profile.notes.join(QLatin1Char(' ')).contains(QStringLiteral("3 ranges")),
                 qPrintable(ranged.profile.notes.join(QLatin1Char(' '))));
        const AnalysisResult offline = guifixtures::analyse(m_dump);
        QCOMPARE(ranged.profile.documents, offline.profile.documents);
        QCOMPARE(ranged.profile.sizes.sum(), offline.profile.sizes.sum());
        QCOMPARE(ranged.profile.sizes.quantile(0.99), offline.profile.sizes.quantile(0.99));
        QCOMPARE(ranged.outliers.rows.size(), offline.outliers.rows.size());
        QCOMPARE(ranged.profile.fields.size(), offline.profile.fields.size());
    }

    // The tree follows the server: documents added to a collection and a new database are
    // listed when the window is activated again, and on the timer chosen in View → Refresh the
    // tree (kept for the next start); the selected collection stays selected, its database
    // expanded.
    void treeFollowsTheServer()
    {
        const QString db = QStringLiteral("oe_gui_tree");
        const QString fresh = QStringLiteral("oe_gui_tree_new");
        const QString growing = QStringLiteral("growing");
        QString error;
        const auto insert = [&](const QString &database, int from, int count) {
            QStringList docs;
            for (int i = from; i < from + count; ++i)
                docs << QStringLiteral("{\"_id\": %1, \"items\": [%1, %1, %1]}").arg(i);
            return fixtures::command(m_uri, database,
                                     QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                                         .arg(growing, docs.join(u','))
                                         .toUtf8(),
                                     &error);
        };
        const auto drop = [&] {
            for (const QString &d : {db, fresh})
                fixtures::command(m_uri, d, "{\"dropDatabase\": 1}", &error);
        };
        drop();
        QVERIFY2(insert(db, 0, 1), qPrintable(error));

        const auto menuAction = [](MainWindow &w, const QString &text) -> QAction * {
            QList<QAction *> actions = w.menuBar()->actions();
            while (!actions.isEmpty()) {
                QAction *a = actions.takeFirst();
                if (a->text().remove(u'&') == text)
                    return a;
                if (a->menu())
                    actions << a->menu()->actions();
            }
            return nullptr;
        };
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        SourceTreeModel *model = window.sourceModel();
        QTreeView *tree = window.sourceTree();
        // Activation alone first (the menu itself is checked below).
        if (QAction *noTimer = menuAction(window, QStringLiteral("Not on a timer")))
            noTimer->trigger();
        const QModelIndex conn = model->index(0, 0);
        const auto row = [&] { return model->findCollection(conn, db, growing); };
        const auto documents = [&] {
            return model->index(row().row(), SourceTreeModel::Documents, row().parent())
                .data()
                .toString();
        };
        QVERIFY(row().isValid());
        tree->setCurrentIndex(row());
        tree->expand(row().parent());
        QCOMPARE(documents(), QStringLiteral("1"));
        const auto selectionAndExpansionKept = [&] {
            QCOMPARE(model->sourceAt(tree->currentIndex()).collection, growing);
            QCOMPARE(model->sourceAt(tree->currentIndex()).database, db);
            QVERIFY(tree->isExpanded(row().parent()));
        };

        // The server changes while the user is in another window; back in this one, it shows.
        QVERIFY2(insert(db, 1, 2), qPrintable(error));
        QVERIFY2(insert(fresh, 0, 1), qPrintable(error));
        QWidget elsewhere;
        elsewhere.show();
        elsewhere.activateWindow();
        QTRY_VERIFY(elsewhere.isActiveWindow());
        window.activateWindow();
        QTRY_VERIFY(window.isActiveWindow());
        QTRY_VERIFY2_WITH_TIMEOUT(documents() == QStringLiteral("3") &&
                                      model->findCollection(conn, fresh, growing).isValid(),
                                  qPrintable(QStringLiteral("%1 documents shown").arg(documents())),
                                  60000);
        selectionAndExpansionKept();

        // On a timer, with no activation.
        QAction *every10 = menuAction(window, QStringLiteral("Every 10 s"));
        QVERIFY(every10);
        every10->trigger();
        QVERIFY2(insert(db, 3, 4), qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(documents() == QStringLiteral("7"),
                                  qPrintable(QStringLiteral("%1 documents shown").arg(documents())),
                                  60000);
        selectionAndExpansionKept();
        {
            MainWindow next; // the choice is kept
            QAction *kept = menuAction(next, QStringLiteral("Every 10 s"));
            QVERIFY(kept && kept->isChecked());
        }
        menuAction(window, QStringLiteral("Every minute"))->trigger(); // the default again
        drop();
    }
};

QTEST_MAIN(TestGuiLive)
#include "tst_guilive.moc"