// The explorer's Documents tab against a live server (mongod, and FerretDB): a page of the
// collection queried before any analysis (sorted, filtered, projected, paged); a document split
// by the CLI read as one, and the Indexes tab's read path to a deep page; a server gone mid-scan
// is not named a credentials problem. Browsing, analysing and the Overview: tst_guilive.cpp.
#include "GuiFixtures.h"
#include "GuiLiveFixture.h"
#include "Toxiproxy.h"
#include "charts/Format.h"
#include "explorer/MainWindow.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/DocumentsPage.h"
#include "pages/IndexesPage.h"
#include "pages/ShapePage.h"
#include "viewer/ErrorNotice.h"
#include "viewer/LogicalDocumentDialog.h"

#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTreeView>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace oe;

class TestGuiLiveDocuments : public QObject, private GuiLiveFixture
{
    Q_OBJECT

public:
    // Its own database: CTest may run tst_guilive, which sizes oe_gui, on the same server.
    TestGuiLiveDocuments() : GuiLiveFixture(QStringLiteral("oe_guidocuments")) {}

private slots:
    void initTestCase() { openServerWithFeeds(); }

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

    // The Shape tab on a collection (issue 37): the demo's device readings measured here, a
    // rare field's flag activated runs the query that finds it on the Documents tab, which
    // lists exactly the documents that have the field, the flag's examples among them.
    void aShapeFlagRunsItsQueryOnDocuments()
    {
        const QString dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("device_readings"));
        const QString error = importDump(dump, QStringLiteral("devices"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex devices =
            model->findCollection(model->index(0, 0), m_database, QStringLiteral("devices"));
        QVERIFY(devices.isValid());
        window.sourceTree()->setCurrentIndex(devices);
        window.optionsBar()->modeBox()->setCurrentIndex(
            window.optionsBar()->modeBox()->findData(int(AnalysisOptions::Mode::Full)));
        window.optionsBar()->measureBox()->setCurrentIndex(
            window.optionsBar()->measureBox()->findData(int(MeasureMode::Client)));
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(120000));
        CollectionView *view = window.collectionView();
        QVERIFY(QTest::qWaitFor([&] { return view->isApplied(); }, 10000));
        QVERIFY(view->showTab(QStringLiteral("shape")));
        ShapePage *shape = view->shape();
        QTableWidget *flags = shape->flagsTable();
        int rare = -1;
        for (int r = 0; r < flags->rowCount(); ++r)
            if (flags->item(r, ShapePage::Path)->text() == QLatin1String("calibration"))
                rare = r;
        QVERIFY(rare >= 0);
        QCOMPARE(flags->item(rare, ShapePage::Kind)->text(), QStringLiteral("rare_field"));
        const int count = flags->item(rare, ShapePage::Count)->text().toInt();
        QVERIFY(count > 0);
        DocumentsPage *documents = view->documents();
        QSignalSpy shown(documents, &DocumentsPage::pageShown);
        flags->setCurrentCell(rare, ShapePage::Detail);
        QCOMPARE(shape->documentsButton()->text(), QStringLiteral("Show in Documents"));
        QTest::mouseClick(shape->documentsButton(), Qt::LeftButton);
        QCOMPARE(view->tabs()->currentWidget(), static_cast<QWidget *>(documents));
        QCOMPARE(documents->filterEdit()->text(), shape->queryEdit()->text());
        QCOMPARE(documents->filterEdit()->text(),
                 QStringLiteral("{ \"calibration\" : { \"$exists\" : true } }"));
        QVERIFY(shown.wait(60000));
        QCOMPARE(int(documents->documents().size()), count);
        QStringList found;
        for (const BrowsedDocument &d : documents->documents())
            found << d.id;
        for (const QString &id :
             flags->item(rare, ShapePage::Examples)->text().split(QLatin1Char(' ')))
            QVERIFY2(found.contains(id), qPrintable(id));
        saveScreenshot(&window, QStringLiteral("shape-documents"));
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
                          QStringLiteral("--db"), m_database, QStringLiteral("--collection"),
                          collection, QStringLiteral("--dump"), single, QStringLiteral("--drop")},
              QStringList{QStringLiteral("split"), QStringLiteral("--uri"), m_uri,
                          QStringLiteral("--db"), m_database, QStringLiteral("--collection"),
                          collection, QStringLiteral("--field"), QStringLiteral("activities"),
                          QStringLiteral("--keep"), QStringLiteral("50"),
                          QStringLiteral("--page-size"), QStringLiteral("100"),
                          QStringLiteral("--yes"), QStringLiteral("--out-dir"), m_dir.path()}}) {
            QProcess cli;
            cli.start(qEnvironmentVariable("OE_CLI"), args);
            QVERIFY(cli.waitForFinished(300000));
            QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        }

        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex row = model->findCollection(model->index(0, 0), m_database, collection);
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
};

QTEST_MAIN(TestGuiLiveDocuments)
#include "tst_guilivedocuments.moc"
