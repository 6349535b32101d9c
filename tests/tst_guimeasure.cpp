// Where the window measures (issues 36, 54), through its widgets on a live server: the options
// bar's Measure choice goes into the run, and after it the bar says where the run measured, from
// what ran (the profile), not from the choice: on mongod, "On the server" (a partial analysis,
// named so) and "Here (client)" give the same Overview; Auto reads every field on this machine,
// and through a slow link counts the whole analysis in the cluster, its Shape tab the dump's; on
// FerretDB (no $bsonSize) "On the server" is refused with that reason. A dump has no choice (it
// is measured here).
#include "GuiFixtures.h"
#include "LiveServer.h"
#include "Toxiproxy.h"
#include "explorer/MainWindow.h"
#include "models/FieldTableModel.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/OverviewPage.h"
#include "pages/ShapeFieldTree.h"
#include "pages/ShapePage.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

#include <functional>

using namespace oe;

namespace {

// What the Overview shows after a run, and where the bar says it measured.
struct Shown
{
    QString documents;
    QString sizeP99;
    QString largest;
    QString longestPath;   // the worst array path
    QString longestLength; // its longest array
    QString measured;      // the bar's label
    QString why;           // its tooltip
};

} // namespace

class TestGuiMeasure : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    fixtures::LiveServer m_server;
    QString m_dump;
    QString m_books;

    bool connectTo(MainWindow &window, const QString &uri = {}) const
    {
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        window.setInteractive(false);
        window.show();
        ConnectionSettings settings;
        settings.uri = uri.isEmpty() ? m_server.uri() : uri;
        window.addConnection(
            m_server.isMongod() ? QStringLiteral("mongod") : QStringLiteral("ferretdb"), settings);
        return loaded.wait(60000) && loaded.first().at(1).toBool();
    }
    static bool selectFeeds(MainWindow &window, const QString &name = QStringLiteral("feeds"))
    {
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex feeds =
            model->findCollection(model->index(0, 0), QStringLiteral("oe_measure"), name);
        if (!feeds.isValid())
            return false;
        window.sourceTree()->setCurrentIndex(feeds);
        return true;
    }
    static void choose(QComboBox *box, const QVariant &data)
    {
        const int index = box->findData(data);
        QVERIFY(index >= 0);
        box->setCurrentIndex(index);
    }
    // Chooses `mode` in the bar as a user would, clicks Run and waits for the result.
    static AnalysisResult run(MainWindow &window, MeasureMode mode)
    {
        AnalysisOptionsBar *bar = window.optionsBar();
        choose(bar->measureBox(), int(mode));
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        if (!bar->runButton()->isEnabled())
            qFatal("Run is disabled: %s", qPrintable(bar->problem()));
        QTest::mouseClick(bar->runButton(), Qt::LeftButton);
        if (!finished.wait(180000))
            qFatal("no analysis result within 180 s");
        const auto result = finished.first().first().value<AnalysisResult>();
        if (result.profile.status != CollectionProfile::Status::Failed &&
            !QTest::qWaitFor([&] { return window.collectionView()->isApplied(); }, 10000))
            qFatal("the result did not reach every page");
        return result;
    }
    static Shown shown(MainWindow &window)
    {
        const OverviewPage *overview = window.collectionView()->overview();
        const auto *paths = overview->findChild<QTableWidget *>();
        Shown s{overview->valueText(QStringLiteral("Documents")),
                overview->valueText(QStringLiteral("Size p99")),
                overview->valueText(QStringLiteral("Largest")),
                {},
                {},
                window.optionsBar()->measuredLabel()->text(),
                window.optionsBar()->measuredLabel()->toolTip()};
        if (paths && paths->rowCount() > 0) {
            s.longestPath = paths->item(0, 0)->text();
            s.longestLength = paths->item(0, 1)->text();
        }
        return s;
    }
    // What the Shape tab shows: its summary, every flag row and every field tree row (all
    // columns, the tree walked in order).
    static QStringList shapeShown(MainWindow &window)
    {
        const ShapePage *page = window.collectionView()->shape();
        QStringList rows;
        if (!page)
            return rows;
        const QTableWidget *flags = page->flagsTable();
        for (int r = 0; r < flags->rowCount(); ++r) {
            QStringList cells;
            for (int c = 0; c < flags->columnCount(); ++c)
                cells << (flags->item(r, c) ? flags->item(r, c)->text() : QString());
            rows << QStringLiteral("flag: ") + cells.join(QLatin1Char('|'));
        }
        const ShapeFieldTree *tree = page->fieldTree();
        std::function<void(QTreeWidgetItem *)> walk = [&](QTreeWidgetItem *item) {
            QStringList cells;
            for (int c = 0; c < ShapeFieldTree::ColumnCount; ++c)
                cells << item->text(c);
            rows << QStringLiteral("field: ") + cells.join(QLatin1Char('|'));
            for (int i = 0; i < item->childCount(); ++i)
                walk(item->child(i));
        };
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            walk(tree->topLevelItem(i));
        return rows;
    }
    // Connects `window` through `proxy` (toxiproxy, 10 ms of latency: a remote cluster).
    void connectFar(MainWindow &window, Toxiproxy &proxy)
    {
        QString error;
        QVERIFY2(proxy.start(m_server.value(QStringLiteral("OE_TEST_HOSTPORT")), &error),
                 qPrintable(error));
        QVERIFY2(proxy.addToxic(QStringLiteral("far"), QStringLiteral("latency"),
                                QStringLiteral("downstream"), QStringLiteral("{\"latency\": 10}"),
                                &error),
                 qPrintable(error));
        QVERIFY2(
            connectTo(window,
                      QStringLiteral("mongodb://%1/?directConnection=true").arg(proxy.listen())),
            qPrintable(window.lastError()));
    }
    // The Shape tab `dump` gives, run in `window`; empty if the run did not finish.
    static QStringList dumpShapeShown(MainWindow &window, const QString &dump)
    {
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.openDump(dump);
        QTest::mouseClick(window.optionsBar()->runButton(), Qt::LeftButton);
        if (!finished.wait(120000) ||
            !QTest::qWaitFor([&] { return window.collectionView()->isApplied(); }, 10000))
            return {};
        return shapeShown(window);
    }
    // With OE_SCREENSHOT_DIR set (and mongod), `widget` as it looks now: the README's
    // resources/screenshots/measure.png.
    void saveScreenshot(QWidget *widget, const QString &name) const
    {
        const QString dir = qEnvironmentVariable("OE_SCREENSHOT_DIR");
        if (!dir.isEmpty() && m_server.isMongod())
            widget->grab().save(QDir(dir).filePath(name));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        // Small (FerretDB writes slowly), with arrays at several depths.
        m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"), 80);
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("import"), QStringLiteral("--uri"), m_server.uri(),
                   QStringLiteral("--db"), QStringLiteral("oe_measure"),
                   QStringLiteral("--collection"), QStringLiteral("feeds"),
                   QStringLiteral("--dump"), m_dump, QStringLiteral("--drop")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        // Books: a shape the tallies count in the cluster (no field in arrays' elements).
        m_books = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 300);
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("import"), QStringLiteral("--uri"), m_server.uri(),
                   QStringLiteral("--db"), QStringLiteral("oe_measure"),
                   QStringLiteral("--collection"), QStringLiteral("books"),
                   QStringLiteral("--dump"), m_books, QStringLiteral("--drop")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    }

    // The choice is the request's and the session's: it goes into the run of a collection, comes
    // back after a restart's restore(), and a dump has none (it is measured here).
    void choiceGoesIntoTheRequestAndIsKept()
    {
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        AnalysisOptionsBar *bar = window.optionsBar();
        QVERIFY(bar->measureBox()->isEnabled());
        QCOMPARE(MeasureMode(bar->measureBox()->currentData().toInt()), MeasureMode::Auto);
        for (int i = 0; i < bar->measureBox()->count(); ++i)
            QVERIFY(!bar->measureBox()->itemData(i, Qt::ToolTipRole).toString().isEmpty());
        QVERIFY(bar->measuredLabel()->text().isEmpty()); // nothing ran yet
        choose(bar->measureBox(), int(MeasureMode::Client));
        SourceRef feeds = window.sourceModel()->sourceAt(window.sourceTree()->currentIndex());
        QCOMPARE(bar->request(feeds).measure, MeasureMode::Client);

        AnalysisOptionsBar restored;
        restored.restore(bar->snapshot());
        QCOMPARE(MeasureMode(restored.measureBox()->currentData().toInt()), MeasureMode::Client);

        window.openDump(m_dump); // selected: a dump
        QVERIFY(!bar->measureBox()->isEnabled());
        const SourceRef dump = window.sourceModel()->sourceAt(window.sourceTree()->currentIndex());
        QCOMPARE(dump.kind, SourceRef::Kind::Dump);
        QCOMPARE(bar->request(dump).measure, MeasureMode::Auto); // the choice is not a dump's
    }

    // mongod has $bsonSize: "On the server" measures there, "In the cluster" counts there and
    // "Here (client)" measures here, each said by the bar with the session's reason; the
    // Overview's figures are the same, number for number. Switching to a dump and back shows each
    // source's own measurement.
    void serverAndClientShowTheSameFigures()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only: FerretDB has no $bsonSize (serverRefusedWithoutBsonSize)");
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        window.optionsBar()->setMode(AnalysisOptions::Mode::Full);

        const AnalysisResult onServer = run(window, MeasureMode::Server);
        QVERIFY2(onServer.profile.status == CollectionProfile::Status::Complete,
                 qPrintable(window.lastError()));
        QVERIFY(onServer.profile.measuredOnServer);
        const Shown server = shown(window);
        // A partial analysis, and the label says so where the eye is.
        QCOMPARE(server.measured,
                 QStringLiteral("Partial analysis: measured on the server (no shape)"));
        QVERIFY2(server.why.startsWith(
                     QStringLiteral("partial analysis: measured on the server ($bsonSize)")),
                 qPrintable(server.why));
        QCOMPARE(server.why, onServer.profile.notes.value(0));
        window.resize(1200, 760);
        window.collectionView()->showTab(QStringLiteral("overview"));
        QTest::qWait(100);
        saveScreenshot(&window, QStringLiteral("measure.png"));
        // The Arrays tab: activities.tags, inside activities, has its lengths only; the cells the
        // server did not measure are blank, and say why.
        window.collectionView()->showTab(QStringLiteral("arrays"));
        QTest::qWait(100);
        const auto *fields = window.findChild<FieldTableModel *>();
        QVERIFY(fields);
        int tagsRow = -1;
        for (int r = 0; r < fields->rowCount(); ++r)
            if (fields->index(r, FieldTableModel::Path).data().toString() ==
                QLatin1String("activities.tags"))
                tagsRow = r;
        QVERIFY(tagsRow >= 0);
        const QModelIndex tagsDocs = fields->index(tagsRow, FieldTableModel::Documents);
        QVERIFY(tagsDocs.data().toString().isEmpty());
        QVERIFY(tagsDocs.data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QLatin1String("Measured on the server")));
        QVERIFY(!fields->index(tagsRow, FieldTableModel::MaxLength).data().toString().isEmpty());
        saveScreenshot(&window, QStringLiteral("measure-arrays.png"));

        // "In the cluster": the same figures, counted on the server (ServerTally), said so; the
        // feeds' shape too (their activities' fields, the tags in them): the whole analysis.
        const AnalysisResult counted = run(window, MeasureMode::Cluster);
        QVERIFY2(counted.profile.status == CollectionProfile::Status::Complete,
                 qPrintable(window.lastError()));
        QVERIFY(!counted.profile.measuredOnServer);
        QVERIFY2(counted.profile.notes
                         .filter(QRegularExpression(QStringLiteral("^counted in the cluster")))
                         .size() == 1,
                 qPrintable(counted.profile.notes.join(QLatin1Char('\n'))));
        const Shown cluster = shown(window);
        QCOMPARE(cluster.measured, QStringLiteral("Counted in the cluster (shape included)"));
        QCOMPARE(cluster.documents, server.documents);
        QCOMPARE(cluster.sizeP99, server.sizeP99);
        QCOMPARE(cluster.largest, server.largest);
        QCOMPARE(cluster.longestPath, server.longestPath);
        QCOMPARE(cluster.longestLength, server.longestLength);
        QCOMPARE(counted.profile.sizes.quantile(0.99), onServer.profile.sizes.quantile(0.99));
        QCOMPARE(counted.profile.largestDocuments.sorted().size(),
                 onServer.profile.largestDocuments.sorted().size());
        QCOMPARE(counted.outliers.rows.size(), onServer.outliers.rows.size());

        const AnalysisResult here = run(window, MeasureMode::Client);
        QVERIFY(!here.profile.measuredOnServer);
        const Shown client = shown(window);
        QCOMPARE(client.measured, QStringLiteral("Measured here (client-side)"));
        QVERIFY2(client.why.startsWith(QStringLiteral("measured client-side")),
                 qPrintable(client.why));
        QCOMPARE(client.why, here.profile.notes.value(0));

        QCOMPARE(client.documents, server.documents);
        QCOMPARE(client.documents, QLocale().toString(80));
        QCOMPARE(client.sizeP99, server.sizeP99);
        QCOMPARE(client.largest, server.largest);
        QVERIFY(!server.longestPath.isEmpty());
        QCOMPARE(client.longestPath, server.longestPath);
        QCOMPARE(client.longestLength, server.longestLength);
        // And the numbers behind the rounding.
        QCOMPARE(here.profile.documents, onServer.profile.documents);
        QCOMPARE(here.profile.sizes.quantile(0.99), onServer.profile.sizes.quantile(0.99));
        QCOMPARE(here.profile.sizes.max(), onServer.profile.sizes.max());

        // The label is the shown source's: a dump (never analysed) says nothing, analysed it says
        // here; back on the collection, its last run (client) is said again.
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.openDump(m_dump);
        QVERIFY(window.optionsBar()->measuredLabel()->text().isEmpty());
        QTest::mouseClick(window.optionsBar()->runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(120000));
        QCOMPARE(window.optionsBar()->measuredLabel()->text(),
                 QStringLiteral("Measured here (client-side)"));
        QVERIFY2(window.optionsBar()->measuredLabel()->toolTip().contains(
                     QStringLiteral("a dump file is read here")),
                 qPrintable(window.optionsBar()->measuredLabel()->toolTip()));
        QVERIFY(selectFeeds(window));
        QCOMPARE(shown(window).measured, client.measured);
        QCOMPARE(shown(window).why, client.why);
    }

    // Auto reads every field here from a server on this machine, mongod and FerretDB alike:
    // the label says so, its tooltip the session's reason, and the Shape tab is full (across a
    // network, remoteClusterShowsTheDumpsShape).
    void autoSaysWhatRan()
    {
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        window.optionsBar()->setMode(AnalysisOptions::Mode::Full);
        const AnalysisResult result = run(window, MeasureMode::Auto);
        QVERIFY2(result.profile.status == CollectionProfile::Status::Complete,
                 qPrintable(window.lastError()));
        QVERIFY(!result.profile.measuredOnServer);
        QVERIFY(result.shape.measured);
        const Shown s = shown(window);
        QCOMPARE(s.measured, QStringLiteral("Measured here (client-side)"));
        QVERIFY2(s.why.startsWith(QStringLiteral("measured client-side: every field")),
                 qPrintable(s.why));
        QCOMPARE(s.documents, QLocale().toString(80));
    }

    // Issue 54: through a link with 10 ms of latency (toxiproxy: a remote cluster), Auto counts
    // the whole analysis in the cluster (only answers cross the link), the bar says so, and the
    // Shape tab (its flags and its field tree, every cell) is the one the same documents give
    // from a dump. Before, auto measured on the server there and the tab was blank.
    void remoteClusterShowsTheDumpsShape()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only: the proxy stands for a remote mongod");
        Toxiproxy proxy;
        MainWindow window;
        connectFar(window, proxy);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(selectFeeds(window));
        window.optionsBar()->setMode(AnalysisOptions::Mode::Full);
        const AnalysisResult remote = run(window, MeasureMode::Auto);
        QVERIFY2(remote.profile.status == CollectionProfile::Status::Complete,
                 qPrintable(window.lastError()));
        QVERIFY(!remote.profile.measuredOnServer);
        QVERIFY(remote.profile.countedInCluster);
        QVERIFY(remote.shape.measured);
        QCOMPARE(shown(window).measured, QStringLiteral("Counted in the cluster (shape included)"));
        QVERIFY2(shown(window).why.startsWith(QLatin1String("counted in the cluster (auto: the "
                                                            "server is across a network")),
                 qPrintable(shown(window).why));
        const QStringList remoteShape = shapeShown(window);

        const QStringList dumpShape = dumpShapeShown(window, m_dump);
        QVERIFY2(dumpShape.size() > 10, qPrintable(dumpShape.join(QLatin1Char('\n'))));
        QCOMPARE(remoteShape, dumpShape);
    }

    // Issue 54: "In the cluster" on books through the same link counts the shape too: the bar
    // says so (not partial, not here), and the Shape tab, every cell, is the dump's.
    void clusterCountsTheShapeAsTheDump()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only: the tallies need $bsonSize and $minN");
        Toxiproxy proxy;
        MainWindow window;
        connectFar(window, proxy);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(selectFeeds(window, QStringLiteral("books")));
        window.optionsBar()->setMode(AnalysisOptions::Mode::Full);
        const AnalysisResult counted = run(window, MeasureMode::Cluster);
        QVERIFY2(counted.profile.status == CollectionProfile::Status::Complete,
                 qPrintable(window.lastError()));
        QVERIFY(!counted.profile.measuredOnServer);
        QVERIFY(counted.profile.countedInCluster);
        QVERIFY(counted.shape.measured);
        const Shown shownCounted = shown(window);
        QCOMPARE(shownCounted.measured, QStringLiteral("Counted in the cluster (shape included)"));
        QVERIFY2(
            shownCounted.why.startsWith(QLatin1String("counted in the cluster, shape included")),
            qPrintable(shownCounted.why));
        window.resize(1200, 760);
        window.collectionView()->showTab(QStringLiteral("overview"));
        QTest::qWait(100);
        saveScreenshot(&window, QStringLiteral("measure-cluster.png"));
        const QStringList countedShape = shapeShown(window);

        const QStringList dumpShape = dumpShapeShown(window, m_books);
        QVERIFY2(dumpShape.size() >= 4, qPrintable(dumpShape.join(QLatin1Char('\n'))));
        QCOMPARE(countedShape, dumpShape);
    }

    // "On the server" on a server without $bsonSize is refused, with the reason, and the bar
    // says nothing ran.
    void serverRefusedWithoutBsonSize()
    {
        if (!m_server.isFerretDb())
            QSKIP("FerretDB only: mongod has $bsonSize");
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        QVERIFY(selectFeeds(window));
        const AnalysisResult result = run(window, MeasureMode::Server);
        QCOMPARE(result.profile.status, CollectionProfile::Status::Failed);
        const ErrorNotice &notice = window.lastErrorNotice();
        const QString said = notice.headline + QLatin1Char('\n') + notice.details;
        QVERIFY2(said.contains(QStringLiteral("$bsonSize")), qPrintable(said));
        QVERIFY(window.optionsBar()->measuredLabel()->text().isEmpty());
    }
};

QTEST_MAIN(TestGuiMeasure)
#include "tst_guimeasure.moc"
