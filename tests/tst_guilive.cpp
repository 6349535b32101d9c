// The explorer against a live server (mongod, and FerretDB): name the server, browse the
// catalog, analyse a collection (equal to the analysis of the dump it was imported from; the
// Overview's figures those of the CLI's analysis of the same collection), open an outlier by _id.
#include "CsvTestReader.h"
#include "GuiFixtures.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "SummaryCsv.h"
#include "Toxiproxy.h"
#include "charts/Format.h"
#include "dialogs/ConnectionDialog.h"
#include "explorer/AnalysisOptionsBar.h"
#include "explorer/CollectionView.h"
#include "explorer/DocumentsPage.h"
#include "explorer/ErrorNotice.h"
#include "explorer/IndexesPage.h"
#include "explorer/LogicalDocumentDialog.h"
#include "explorer/MainWindow.h"
#include "explorer/OverviewPage.h"
#include "explorer/SourceTreeModel.h"
#include "jobs/DocumentLoader.h"
#include "scan/ScanCheckpoint.h"

#include <QComboBox>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace oe;

class TestGuiLive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    fixtures::LiveServer m_server;
    QString m_uri;
    QString m_dump;
    QList<fixtures::ReferenceDocument> m_ref;

    // Shows `window` connected to the test's server, its databases listed.
    bool connectTo(MainWindow &window) const
    {
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        guifixtures::showConnecting(window, m_uri);
        return loaded.wait(60000) && loaded.first().at(1).toBool();
    }
    // With OE_SCREENSHOT_DIR set (and mongod), `widget` as it looks now, for the README.
    void saveScreenshot(QWidget *widget, const QString &name) const
    {
        const QString dir = qEnvironmentVariable("OE_SCREENSHOT_DIR");
        if (!dir.isEmpty() && m_server.isMongod())
            widget->grab().save(QDir(dir).filePath(name));
    }
    // Selects oe_gui.feeds in the window's source tree; false if it is not listed.
    static bool selectFeeds(MainWindow &window)
    {
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex feeds = model->findCollection(
            model->index(0, 0), QStringLiteral("oe_gui"), QStringLiteral("feeds"));
        if (!feeds.isValid())
            return false;
        window.sourceTree()->setCurrentIndex(feeds);
        return true;
    }

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
    // data); a database's Size is its documents' (on mongod, oe_gui holds only the imported
    // feeds: the dump's bytes), not its storage size on disk.
    void checkCatalogRows(SourceTreeModel *model, const QModelIndex &conn) const
    {
        QModelIndex gui;
        for (int d = 0; d < model->rowCount(conn); ++d) {
            const QModelIndex db = model->index(d, 0, conn);
            if (db.data().toString() == QLatin1String("oe_gui"))
                gui = db;
            for (int c = 0; c < model->rowCount(db); ++c) {
                const QString name = model->index(c, 0, db).data().toString();
                QVERIFY2(!name.startsWith(QStringLiteral("system.")),
                         qPrintable(db.data().toString() + QLatin1Char('.') + name));
            }
        }
        QVERIFY(gui.isValid());
        if (!m_server.isMongod())
            return; // FerretDB's statistics are its SQLite storage's
        const QString bytes = Format::bytes(std::uint64_t(QFileInfo(m_dump).size()));
        QCOMPARE(model->index(0, SourceTreeModel::Size, gui).data().toString(), bytes);
        QCOMPARE(model->index(gui.row(), SourceTreeModel::Size, gui.parent()).data().toString(),
                 bytes);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"));
        m_ref = fixtures::readReference(m_dump);
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("import"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
                   QStringLiteral("oe_gui"), QStringLiteral("--collection"),
                   QStringLiteral("feeds"), QStringLiteral("--dump"), m_dump,
                   QStringLiteral("--drop")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    }

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

    // The Documents tab, before any analysis: a page of the collection in natural order with
    // each document's size and longest array (the dump's, read with plain libbson), sorted,
    // filtered, projected, paged; a query part that is not extended JSON is named as typed and
    // nothing is sent.
    void documentsTabQueriesTheCollection()
    {
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        CollectionView *view = window.collectionView();
        QVERIFY(view->isVisible());
        QCOMPARE(view->tabs()->currentWidget(), static_cast<QWidget *>(view->documents()));
        DocumentsPage *page = view->documents();
        QSignalSpy shown(page, &DocumentsPage::pageShown);
        const auto find = [&] {
            shown.clear();
            QTest::mouseClick(page->findButton(), Qt::LeftButton);
            return shown.wait(60000);
        };
        std::map<QString, fixtures::ReferenceDocument> byId;
        for (const auto &ref : m_ref)
            byId[ref.id] = ref;
        page->limitBox()->setValue(5);
        QVERIFY(find());
        QCOMPARE(page->documents().size(), std::size_t(5));
        QCOMPARE(page->table()->rowCount(), 5);
        for (std::size_t i = 0; i < 5; ++i) {
            const BrowsedDocument &d = page->documents()[i];
            QCOMPARE(d.id, m_ref[qsizetype(i)].id); // natural order: the import's
            QCOMPARE(d.size, std::uint64_t(m_ref[qsizetype(i)].size));
            QCOMPARE(d.longestArrayLength, std::uint64_t(m_ref[qsizetype(i)].longestArrayLength));
            QCOMPARE(d.longestArrayPath, m_ref[qsizetype(i)].longestArrayPath);
            QCOMPARE(page->table()->item(int(i), 1)->text(), Format::bytes(d.size));
        }
        QVERIFY2(
            page->statusText().contains(
                QStringLiteral("of %1 matching").arg(Format::count(std::uint64_t(m_ref.size())))),
            qPrintable(page->statusText()));

        shown.clear();
        page->nextPage(); // documents 6–10
        QVERIFY(shown.wait(60000));
        QCOMPARE(page->skipBox()->value(), 5);
        QCOMPARE(page->documents().front().id, m_ref[5].id);

        page->sortEdit()->setText(QStringLiteral("{\"_id\": -1}"));
        QVERIFY(find());
        QStringList ids;
        for (const auto &ref : m_ref)
            ids << ref.id;
        std::sort(ids.begin(), ids.end(), std::greater<>());
        for (std::size_t i = 0; i < page->documents().size(); ++i)
            QCOMPARE(page->documents()[i].id, ids[qsizetype(i)]);

        page->filterEdit()->setText(QStringLiteral("{\"_id\": "));
        QVERIFY2(page->problemText().startsWith(QStringLiteral("filter: ")),
                 qPrintable(page->problemText()));
        QVERIFY(!page->findButton()->isEnabled());
        page->filterEdit()->setText(QStringLiteral("{\"_id\": %1}").arg(m_ref[7].id));
        QVERIFY(page->problemText().isEmpty());
        page->projectionEdit()->setText(QStringLiteral("{\"_id\": 1}"));
        QVERIFY(find());
        QCOMPARE(page->documents().size(), std::size_t(1));
        QCOMPARE(page->documents().front().id, m_ref[7].id);
        QVERIFY(page->documents().front().size < std::uint64_t(m_ref[7].size));
        QVERIFY(page->documents().front().longestArrayPath.isEmpty());
        QVERIFY2(page->statusText().contains(QStringLiteral("of 1 matching")),
                 qPrintable(page->statusText()));
    }

    // A document split by the CLI, as the application reads it: its primary and pages stitched
    // in order give the original array back (the dump's document), each run of elements named
    // with where it lives; the Indexes tab lists the overflow's {link, page} index and the
    // server reads a deep page through it.
    void logicalDocumentAndReadPath()
    {
        const QString collection = QStringLiteral("feeds_split");
        // The longest array of the dump: the document to split and read back (alone in its
        // collection: FerretDB writes slowly).
        const auto longest =
            std::max_element(m_ref.begin(), m_ref.end(), [](const auto &a, const auto &b) {
                return a.longestArrayLength < b.longestArrayLength;
            });
        QVERIFY(longest->longestArrayLength > 150);
        const QByteArray originalJson =
            fixtures::documentJsonAt(m_dump, qsizetype(longest - m_ref.begin()));
        const QString single = m_dir.filePath(QStringLiteral("longest.bson"));
        QVERIFY(fixtures::writeFile(single, fixtures::bson(originalJson.constData())));
        for (const QStringList &args :
             {QStringList{QStringLiteral("import"), QStringLiteral("--uri"), m_uri,
                          QStringLiteral("--db"), QStringLiteral("oe_gui"),
                          QStringLiteral("--collection"), collection, QStringLiteral("--dump"),
                          single, QStringLiteral("--drop")},
              QStringList{
                  QStringLiteral("split"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
                  QStringLiteral("oe_gui"), QStringLiteral("--collection"), collection,
                  QStringLiteral("--field"), QStringLiteral("activities"), QStringLiteral("--keep"),
                  QStringLiteral("50"), QStringLiteral("--page-size"), QStringLiteral("100"),
                  QStringLiteral("--yes"), QStringLiteral("--out-dir"), m_dir.path()}}) {
            QProcess cli;
            cli.start(qEnvironmentVariable("OE_CLI"), args);
            QVERIFY(cli.waitForFinished(300000));
            QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        }

        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex row =
            model->findCollection(model->index(0, 0), QStringLiteral("oe_gui"), collection);
        QVERIFY(row.isValid());
        window.sourceTree()->setCurrentIndex(row);
        DocumentsPage *page = window.collectionView()->documents();
        QSignalSpy shown(page, &DocumentsPage::pageShown);
        page->filterEdit()->setText(QStringLiteral("{\"_id\": %1}").arg(longest->id));
        QTest::mouseClick(page->findButton(), Qt::LeftButton);
        QVERIFY(shown.wait(60000));
        QCOMPARE(page->documents().size(), std::size_t(1));
        QVERIFY(page->documents().front().flagged);
        QCOMPARE(page->documents().front().longestArrayLength, std::uint64_t(50));
        QCOMPARE(page->table()->item(0, 4)->text(), QStringLiteral("split"));
        window.resize(1200, 760);
        saveScreenshot(&window, QStringLiteral("documents.png"));

        LogicalDocumentDialog *logical = page->openLogical(0);
        QVERIFY(logical);
        QSignalSpy loaded(logical, &LogicalDocumentDialog::loaded);
        QVERIFY(loaded.wait(60000));
        QVERIFY2(loaded.first().first().toBool(), qPrintable(logical->document().error.toString()));
        const LogicalDocument &doc = logical->document();
        QVERIFY(doc.split);
        QCOMPARE(doc.elements, std::uint64_t(longest->longestArrayLength));
        QCOMPARE(doc.places.front().where, QStringLiteral("primary"));
        QCOMPARE(doc.places.front().count, std::uint64_t(50));
        const std::uint64_t pages = (longest->longestArrayLength - 50 + 99) / 100;
        QCOMPARE(doc.places.size(), std::size_t(1 + pages));
        for (std::size_t i = 1; i < doc.places.size(); ++i) {
            QCOMPARE(doc.places[i].page, std::int64_t(i - 1));
            QCOMPARE(doc.places[i].first, 50 + (i - 1) * 100);
        }
        QCOMPARE(logical->places()->rowCount(), int(doc.places.size()));
        // Stitched: the array is the original's, element for element.
        const QJsonObject stitched =
            QJsonDocument::fromJson(fixtures::jsonOf(doc.stitched)).object();
        QVERIFY(!logical->jsonText().isEmpty());
        QTest::qWait(100); // its summary re-wraps to the text it got
        saveScreenshot(logical, QStringLiteral("logical-document.png"));
        QCOMPARE(
            stitched.value(QStringLiteral("activities")),
            QJsonDocument::fromJson(originalJson).object().value(QStringLiteral("activities")));
        logical->close();

        window.collectionView()->showTab(QStringLiteral("indexes"));
        IndexesPage *indexes = window.collectionView()->indexes();
        QTRY_VERIFY_WITH_TIMEOUT(indexes->indexTable()->rowCount() >= 2, 60000);
        bool linkIndex = false;
        for (int r = 0; r < indexes->indexTable()->rowCount(); ++r)
            linkIndex = linkIndex || (indexes->indexTable()->item(r, 0)->text() ==
                                          collection + QStringLiteral("_overflow") &&
                                      indexes->indexTable()->item(r, 2)->text().contains(
                                          QStringLiteral("\"parent_id\"")));
        QVERIFY2(linkIndex, qPrintable(indexes->noteText()));
        QSignalSpy plans(indexes, &IndexesPage::plansShown);
        indexes->idEdit()->setText(longest->id);
        indexes->pageBox()->setValue(int(pages) - 1);
        indexes->explain();
        QVERIFY(plans.wait(60000));
        QCOMPARE(indexes->planTable()->rowCount(), 2);
        saveScreenshot(&window, QStringLiteral("indexes.png"));
        const QString deep = indexes->planTable()->item(1, 2)->text();
        // FerretDB explains in its own terms (no executionStats): only mongod's plan is checked.
        QVERIFY2(!deep.contains(QStringLiteral("explaining")), qPrintable(deep)); // no error
        if (m_server.isMongod()) {
            QCOMPARE(indexes->planTable()->item(1, 5)->text(), QStringLiteral("1"));
            QVERIFY2(deep.contains(QStringLiteral("IXSCAN")), qPrintable(deep));
            QVERIFY2(!deep.contains(QStringLiteral("COLLSCAN")), qPrintable(deep));
            QCOMPARE(indexes->planTable()->item(1, 4)->text(), QStringLiteral("1"));
            QVERIFY2(
                indexes->planTable()->item(0, 2)->text().contains(QStringLiteral("ID")) ||
                    indexes->planTable()->item(0, 2)->text().contains(QStringLiteral("IXSCAN")),
                qPrintable(indexes->planTable()->item(0, 2)->text()));
        }
    }

    // Issue 35: a server that goes away mid-scan got the advice to check the user name and
    // password. Here toxiproxy, between the window and the server, cuts the scan's connection
    // after its first 2 MB (of 38): the connection is reset mid-scan, as when the server is
    // killed. The advice fits: the server went away; check that it is running and reachable,
    // then Run again; never the password.
    void aServerGoneMidScanIsNotACredentialsProblem()
    {
        Toxiproxy proxy;
        QString error;
        QVERIFY2(proxy.start(m_server.value(QStringLiteral("OE_TEST_HOSTPORT")), &error),
                 qPrintable(error));
        MainWindow window;
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        guifixtures::showConnecting(
            window, QStringLiteral("mongodb://%1/?directConnection=true&serverSelectionTimeoutMS="
                                   "3000&connectTimeoutMS=3000")
                        .arg(proxy.listen()));
        QVERIFY(loaded.wait(120000));
        QVERIFY2(loaded.first().at(1).toBool(), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        window.optionsBar()->modeBox()->setCurrentIndex(
            window.optionsBar()->modeBox()->findData(int(AnalysisOptions::Mode::Full)));
        // Measured here, so that the documents themselves cross the proxy: measured on the
        // server, the whole scan moves less than the 2 MB after which the connection is cut.
        window.optionsBar()->measureBox()->setCurrentIndex(
            window.optionsBar()->measureBox()->findData(int(MeasureMode::Client)));
        QVERIFY2(proxy.addToxic(QStringLiteral("cut"), QStringLiteral("limit_data"),
                                QStringLiteral("downstream"),
                                QStringLiteral("{\"bytes\": 2000000}"), &error),
                 qPrintable(error));
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        // The window says why the analysis stopped before it reports the result; kept then (a
        // page that queries meanwhile may fail too, with its own notice).
        ErrorNotice notice;
        connect(&window, &MainWindow::analysisFinished, this,
                [&] { notice = window.lastErrorNotice(); });
        window.runAnalysis();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        const AnalysisResult result = finished.first().first().value<AnalysisResult>();
        qInfo("stopped after %llu of %lld documents", qulonglong(result.profile.documents),
              qlonglong(m_ref.size()));
        QCOMPARE(result.profile.status, CollectionProfile::Status::Failed);
        QVERIFY(result.profile.documents < std::uint64_t(m_ref.size()));
        QCOMPARE(notice.title, QStringLiteral("Analysis"));
        qInfo("headline: %s", qPrintable(notice.headline));
        qInfo("advice: %s", qPrintable(notice.advice));
        QVERIFY2(!notice.advice.contains(QStringLiteral("password")), qPrintable(notice.advice));
        QVERIFY2(notice.advice.contains(QStringLiteral("running and reachable")),
                 qPrintable(notice.advice));
        QVERIFY2(notice.advice.contains(QStringLiteral("Run again")), qPrintable(notice.advice));
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
