// The whole window, offscreen: runs with progress and cancel, a corrupt dump and an
// unreachable server (clear errors, the window stays usable), the document viewer, CSV export
// (the CLI's writer, the CLI's bytes) and `--demo --screenshot` for every tab.
#include "GuiFixtures.h"
#include "SummaryCsv.h"
#include "analysis/Analyzer.h"
#include "analysis/SamplePrecision.h"
#include "charts/Format.h"
#include "charts/HistogramChart.h"
#include "demo/DemoLauncher.h"
#include "dialogs/UserGuide.h"
#include "explorer/AppIcon.h"
#include "explorer/MainWindow.h"
#include "models/DocumentTreeModel.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/OutliersPage.h"
#include "pages/OverviewPage.h"
#include "pages/SizesPage.h"
#include "source/DumpFileSource.h"
#include "viewer/DocumentViewer.h"
#include "workspace/Workspace.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QTreeView>
#include <QtTest>

using namespace oe;

class TestGuiWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_feeds;
    QList<fixtures::ReferenceDocument> m_feedsRef;

    static AnalysisResult waitForResult(MainWindow &window, int timeoutMs = 60000)
    {
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        if (!finished.wait(timeoutMs))
            qFatal("no analysis result within %d ms", timeoutMs);
        // The pages fill over a few event-loop turns.
        if (!QTest::qWaitFor([&] { return window.collectionView()->isApplied(); }, 10000))
            qFatal("the result did not reach every page");
        return finished.first().first().value<AnalysisResult>();
    }

    // The error box the window has open (the last one), or null.
    static QMessageBox *openBox(MainWindow &window)
    {
        const QList<QMessageBox *> boxes = window.findChildren<QMessageBox *>();
        return boxes.isEmpty() ? nullptr : boxes.last();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_feeds = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"));
        m_feedsRef = fixtures::readReference(m_feeds);
    }

    void runShowsProgressAndResult()
    {
        // Big enough that the scan reports progress along the way.
        const QString big =
            guifixtures::demoDump(m_dir.path(), QStringLiteral("feed_bench"), 60000);
        MainWindow window;
        guifixtures::openForFullScan(window, big);
        QSignalSpy progress(window.workspace(), &Workspace::progressed);
        QSignalSpy running(window.workspace(), &Workspace::runningChanged);
        window.runAnalysis();
        QVERIFY(window.workspace()->isRunning());
        QVERIFY(!window.optionsBar()->runButton()->isEnabled());
        QVERIFY(window.optionsBar()->cancelButton()->isEnabled());
        const AnalysisResult result = waitForResult(window);
        QCOMPARE(result.profile.status, CollectionProfile::Status::Complete);
        QCOMPARE(result.profile.documents, std::uint64_t(60000));
        QVERIFY(progress.count() >= 1);
        const auto last = progress.last().at(1).value<AnalysisProgress>();
        QCOMPARE(last.scan.documents, std::uint64_t(60000));
        QCOMPARE(last.scan.sizesSoFar.total(), std::uint64_t(60000)); // charts filled while running
        QVERIFY(last.text().contains(QLocale().toString(60000)));
        QCOMPARE(running.count(), 2); // on, then off
        QVERIFY(window.optionsBar()->runButton()->isEnabled());
        QVERIFY(window.statusText().contains(QLocale().toString(60000)));
    }

    void cancelKeepsAPartialResultAndTheWindowUsable()
    {
        const QString big =
            guifixtures::demoDump(m_dir.path(), QStringLiteral("feed_bench"), 60000);
        MainWindow window;
        guifixtures::openForFullScan(window, big);
        window.runAnalysis();
        window.cancelAnalysis(); // before the worker has read a batch
        const AnalysisResult cancelled = waitForResult(window);
        QCOMPARE(cancelled.profile.status, CollectionProfile::Status::Cancelled);
        QVERIFY(cancelled.profile.documents < 60000);
        QVERIFY2(window.statusText().contains(QStringLiteral("Cancelled")),
                 qPrintable(window.statusText()));
        // Run again: a complete result.
        window.runAnalysis();
        QCOMPARE(waitForResult(window).profile.documents, std::uint64_t(60000));
    }

    void corruptDumpSaysWhereAndTheWindowStaysUsable()
    {
        // Three good documents, then one whose length runs past the end of the file.
        QByteArray bytes =
            fixtures::concat({fixtures::documentWithArray(1, 5), fixtures::documentWithArray(2, 50),
                              fixtures::documentWithArray(3, 500)});
        const qsizetype faultOffset = bytes.size();
        const QByteArray fourth = fixtures::documentWithArray(4, 10);
        bytes += fourth.left(fourth.size() / 2);
        const QString corrupt = m_dir.filePath(QStringLiteral("corrupt.bson"));
        QVERIFY(fixtures::writeFile(corrupt, bytes));

        MainWindow window;
        QSignalSpy errors(&window, &MainWindow::errorShown);
        guifixtures::openForFullScan(window, corrupt);
        window.setInteractive(true); // the box a user sees
        window.runAnalysis();
        const AnalysisResult failed = waitForResult(window);
        QCOMPARE(failed.profile.status, CollectionProfile::Status::Failed);
        QCOMPARE(failed.profile.documents, std::uint64_t(3)); // the prefix before the fault
        QCOMPARE(errors.count(), 1);
        const QString message = errors.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("corrupt.bson")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("document #3")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("byte offset %1").arg(faultOffset)),
                 qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
        // The box's own line names the document, the offset and the cause, not only its
        // details; its advice fits damaged data.
        const QMessageBox *box = openBox(window);
        QVERIFY(box);
        QVERIFY2(
            box->text().contains(QStringLiteral("document #3 at byte offset %1").arg(faultOffset)),
            qPrintable(box->text()));
        QVERIFY2(box->text().contains(failed.profile.error.message), qPrintable(box->text()));
        QVERIFY2(box->informativeText().contains(QStringLiteral("damaged")),
                 qPrintable(box->informativeText()));
        delete box;
        window.setInteractive(false);

        // The window still works: another source analyses normally.
        window.openDump(m_feeds);
        window.runAnalysis();
        const AnalysisResult ok = waitForResult(window);
        QCOMPARE(ok.profile.status, CollectionProfile::Status::Complete);
        QCOMPARE(ok.profile.documents, std::uint64_t(m_feedsRef.size()));
    }

    void unreachableServerIsAnErrorRowNotAHang()
    {
        MainWindow window;
        window.show();
        QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
        ConnectionSettings settings;
        settings.uri = QStringLiteral("mongodb://app:hunter2@127.0.0.1:1/"
                                      "?serverSelectionTimeoutMS=500&connectTimeoutMS=500");
        settings.serverSelectionTimeoutMs = 500;
        settings.connectTimeoutMs = 500;
        QElapsedTimer clock;
        clock.start();
        window.addConnection(QStringLiteral("nowhere"), settings);
        // The window answers while the connection is tried.
        QVERIFY(window.sourceModel()->index(0, 0).data().toString() == QStringLiteral("nowhere"));
        QVERIFY(loaded.wait(20000));
        qInfo("unreachable server reported after %lld ms", qlonglong(clock.elapsed()));
        QCOMPARE(loaded.first().at(1).toBool(), false);
        const QModelIndex conn = window.sourceModel()->index(0, 0);
        QCOMPARE(window.sourceModel()->rowCount(conn), 1);
        const QString row = window.sourceModel()->index(0, 0, conn).data().toString();
        QVERIFY2(row.contains(QStringLiteral("127.0.0.1:1")), qPrintable(row));
        QVERIFY(!row.contains(QStringLiteral("hunter2")));
        QVERIFY(!window.lastError().contains(QStringLiteral("hunter2")));
        QVERIFY(!window.statusText().contains(QStringLiteral("hunter2")));
        // The box says why on its own line (not only under Details), and does not call a
        // server that is not there bad input.
        const QMessageBox *box = openBox(window);
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("No suitable servers")),
                 qPrintable(box->text()));
        QVERIFY(!box->text().contains(QStringLiteral("hunter2")));
        QVERIFY2(
            !box->informativeText().contains(QStringLiteral("fix the input"), Qt::CaseInsensitive),
            qPrintable(box->informativeText()));
        QVERIFY(box->informativeText().contains(QStringLiteral("reachable")));
        QVERIFY(!box->detailedText().contains(QStringLiteral("hunter2")));
    }

    void outlierOpensInTheDocumentViewer()
    {
        MainWindow window;
        guifixtures::openForFullScan(window, m_feeds);
        window.runAnalysis();
        waitForResult(window);
        OutliersPage *outliers = window.collectionView()->outliers();
        QVERIFY(outliers->proxy()->rowCount() > 0);
        outliers->proxy()->sort(0, Qt::AscendingOrder);
        const QString id = outliers->proxy()->index(0, 0).data().toString();
        outliers->activate(outliers->proxy()->index(0, 0));
        DocumentViewer *viewer = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((viewer = window.findChild<DocumentViewer *>()) != nullptr, 20000);
        QSignalSpy ready(viewer, &DocumentViewer::jsonReady);
        QVERIFY(ready.wait(30000) || !viewer->jsonView()->toPlainText().isEmpty());
        const QJsonObject json =
            QJsonDocument::fromJson(viewer->jsonView()->toPlainText().toUtf8()).object();
        QCOMPARE(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("v"),
                                                              json.value(QStringLiteral("_id"))}})
                                       .toJson(QJsonDocument::Compact))
                     .mid(5)
                     .chopped(1),
                 id);
        QCOMPARE(viewer->model()->rowCount(), int(json.size()));
        std::uint32_t size = 0;
        for (const auto &d : m_feedsRef)
            if (d.id == id)
                size = d.size;
        QVERIFY(viewer->windowTitle().contains(id));
        QVERIFY(size > 0);
    }

    void csvExportMatchesTheCli()
    {
        MainWindow window;
        guifixtures::openForFullScan(window, m_feeds);
        window.runAnalysis();
        waitForResult(window);
        // Ctrl+E reaches Export even while a text field (the outliers' filter) has the focus.
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QSignalSpy triggered(window.exportAction(), &QAction::triggered);
        window.collectionView()->showTab(QStringLiteral("outliers"));
        QLineEdit *filter = window.collectionView()->outliers()->filterEdit();
        // What QLineEdit does on X11 (the offscreen platform has no such binding): it claims
        // Ctrl+E, end of line, before any shortcut sees it.
        struct ClaimsCtrlE : QObject
        {
            bool eventFilter(QObject *, QEvent *e) override
            {
                if (e->type() == QEvent::ShortcutOverride &&
                    static_cast<QKeyEvent *>(e)->keyCombination() ==
                        QKeyCombination(Qt::ControlModifier, Qt::Key_E))
                    e->accept();
                return false;
            }
        } x11LineEdit;
        filter->installEventFilter(&x11LineEdit);
        filter->setFocus();
        QTRY_VERIFY(filter->hasFocus());
        QTest::keyClick(filter, Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(triggered.count(), 1);

        const QString gui = m_dir.filePath(QStringLiteral("gui-reports"));
        QSignalSpy exported(&window, &MainWindow::reportsExported);
        window.exportReports(gui);
        QVERIFY(exported.wait(20000));
        QVERIFY2(exported.first().first().toBool(), qPrintable(exported.first().at(1).toString()));

        const QString cliOut = m_dir.filePath(QStringLiteral("cli-reports"));
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("analyze"), QStringLiteral("--dump"), m_feeds,
                   QStringLiteral("--out"), cliOut});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const QStringList files = QDir(cliOut).entryList(QDir::Files, QDir::Name);
        QVERIFY(files.contains(QStringLiteral("outliers.csv")));
        QCOMPARE(QDir(gui).entryList(QDir::Files, QDir::Name), files);
        for (const QString &name : files) {
            if (name == QLatin1String("summary.csv"))
                continue; // holds the run's duration
            QFile a(QDir(gui).filePath(name)), b(QDir(cliOut).filePath(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), qPrintable(name));
        }

        // File → Export report: the same analysis as one HTML file, its summary the CSV's
        // (the duration aside), its charts inline; the window stays usable meanwhile.
        QVERIFY(window.exportReportAction()->isEnabled());
        QSignalSpy reported(&window, &MainWindow::reportExported);
        const QString html = m_dir.filePath(QStringLiteral("gui-report.html"));
        window.exportReport(html);
        QVERIFY(reported.wait(20000));
        QVERIFY2(reported.first().first().toBool(), qPrintable(reported.first().at(1).toString()));
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QByteArray text = page.readAll();
        QCOMPARE(text.count("<svg"), 2);
        const auto summary = fixtures::SummaryCsv::read(gui);
        QVERIFY(!summary.isEmpty());
        for (auto row = summary.values().cbegin(); row != summary.values().cend(); ++row) {
            const QByteArray metric = row.key().toUtf8(), value = row.value().toUtf8();
            // The HTML escapes what CSV quotes; those rows are compared by tst_report.
            if (!value.isEmpty() && !value.contains(',') && !value.contains('"') &&
                metric != "seconds")
                QVERIFY2(text.contains(QByteArray("<td>" + metric + "</td><td>" + value + "</td>")),
                         metric.constData());
        }
    }

    void screenshotsOfEveryTab_data()
    {
        QTest::addColumn<QString>("tab");
        for (const QString &tab : CollectionView::tabNames())
            QTest::newRow(qPrintable(tab)) << tab;
    }
    void screenshotsOfEveryTab()
    {
        QFETCH(QString, tab);
        const QString file = m_dir.filePath(tab + QStringLiteral(".png"));
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        gui.setProcessEnvironment(env);
        gui.start(qEnvironmentVariable("OE_GUI"),
                  {QStringLiteral("--demo"), QStringLiteral("--screenshot"), file,
                   QStringLiteral("--tab"), tab});
        QVERIFY(gui.waitForFinished(120000));
        QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
        QImage image(file);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1400, 900));
        // A real rendering, not a blank window.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void screenshotRejectsAnUnknownTab()
    {
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        gui.setProcessEnvironment(env);
        gui.start(qEnvironmentVariable("OE_GUI"),
                  {QStringLiteral("--demo"), QStringLiteral("--screenshot"),
                   m_dir.filePath(QStringLiteral("x.png")), QStringLiteral("--tab"),
                   QStringLiteral("charts")});
        QVERIFY(gui.waitForFinished(30000));
        QCOMPARE(gui.exitCode(), 2);
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("charts")) && err.contains(QStringLiteral("overview")),
                 qPrintable(err));
    }

    void wizardScreenshot_data()
    {
        QTest::addColumn<QString>("page");
        for (const char *page : {"layout", "verify"})
            QTest::newRow(page) << QString::fromLatin1(page);
    }
    // `--screenshot --wizard PAGE`: the wizard taken to PAGE as a user would (for verify: an
    // offline split of the demo written into a temporary folder, then verified).
    void wizardScreenshot()
    {
        QFETCH(QString, page);
        const QString file =
            m_dir.filePath(QStringLiteral("wizard-") + page + QStringLiteral(".png"));
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        gui.setProcessEnvironment(env);
        gui.start(qEnvironmentVariable("OE_GUI"),
                  {QStringLiteral("--demo"), QStringLiteral("--dataset"),
                   QStringLiteral("book_sales"), QStringLiteral("--screenshot"), file,
                   QStringLiteral("--wizard"), page});
        QVERIFY(gui.waitForFinished(180000));
        QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
        QImage image(file);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 900 && image.height() >= 600);
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 5)
            for (int x = 0; x < image.width(); x += 5)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 8, qPrintable(QString::number(colours.size())));
        // Nothing was written beside the demo data: the split went to a temporary folder.
        QDirIterator it(m_dir.filePath(QStringLiteral("cache")), {QStringLiteral("*_split")},
                        QDir::Dirs, QDirIterator::Subdirectories);
        QVERIFY2(!it.hasNext(), qPrintable(it.hasNext() ? it.next() : QString()));
    }

    void screenshotRejectsAnUnknownWizardPage()
    {
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        gui.setProcessEnvironment(env);
        gui.start(qEnvironmentVariable("OE_GUI"),
                  {QStringLiteral("--demo"), QStringLiteral("--screenshot"),
                   m_dir.filePath(QStringLiteral("x.png")), QStringLiteral("--wizard"),
                   QStringLiteral("confirm")});
        QVERIFY(gui.waitForFinished(30000));
        QCOMPARE(gui.exitCode(), 2);
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("confirm")) && err.contains(QStringLiteral("safety")),
                 qPrintable(err));
    }

    // `--demo` analyses every dataset: switching to another shows its result at once.
    void demoAnalysesEveryDataset()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        DemoLauncher demo(&window);
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runDemo(QStringLiteral("activity_feeds"));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 6, 120000); // the six demo datasets
        QCOMPARE(finished.first().first().value<AnalysisResult>().request.source.displayName(),
                 QStringLiteral("activity_feeds.bson"));
        // The datasets analysed in the background leave the status bar to the one on screen.
        QVERIFY2(window.statusText().contains(QStringLiteral("activity_feeds.bson")),
                 qPrintable(window.statusText()));
        QVERIFY(window.selectSource(QStringLiteral("book_sales.bson")));
        QTRY_VERIFY_WITH_TIMEOUT(window.collectionView()->isApplied(), 10000);
        QCOMPARE(window.collectionView()->result().request.source.displayName(),
                 QStringLiteral("book_sales.bson"));
        QVERIFY2(window.statusText().startsWith(QStringLiteral("book_sales.bson: 2,000 documents")),
                 qPrintable(window.statusText()));
    }

    void overviewStatesASamplesPrecision()
    {
        AnalysisOptions sample;
        sample.selection.mode = AnalysisOptions::Mode::Sample;
        sample.selection.count = 100;
        AnalysisResult result;
        {
            DumpFileSource source(m_feeds);
            result.profile = Analyzer::run(source, sample);
        }
        OverviewPage page;
        page.showResult(result);
        const SamplePrecision precision = SamplePrecision::of(result.profile);
        QVERIFY(precision.applies);
        QCOMPARE(page.precisionText(QStringLiteral("Size p50")),
                 QStringLiteral("95 % CI %1 – %2")
                     .arg(Format::bytes(*precision.p50.low), Format::bytes(*precision.p50.high)));
        // 100 of 300 documents cannot bound p99 from above.
        QVERIFY(!precision.p99.high);
        QVERIFY2(
            page.precisionText(QStringLiteral("Size p99")).endsWith(QLatin1String("unbounded")),
            qPrintable(page.precisionText(QStringLiteral("Size p99"))));
        QCOMPARE(page.precisionText(QStringLiteral("Largest")),
                 QStringLiteral("≤ %1 larger unseen").arg(*precision.documentsAboveMax));
        // The sample size for a chosen precision of p99, next to the documents counted.
        QComboBox *target = page.precisionTarget();
        QVERIFY(target->isVisibleTo(&page));
        QCOMPARE(target->currentData().toDouble(), 0.1);
        QCOMPARE(page.precisionText(QStringLiteral("Documents")),
                 QStringLiteral("sample; %1 needed").arg(Format::count(38031)));
        const int finer = target->findData(0.01);
        QVERIFY(finer >= 0);
        target->setCurrentIndex(finer);
        emit target->activated(finer);
        QCOMPARE(page.precisionText(QStringLiteral("Documents")),
                 QStringLiteral("sample; %1 needed")
                     .arg(Format::count(SamplePrecision::sampleForP99Within(0.01))));
        QVERIFY(SamplePrecision::sampleForP99Within(0.01) > 3000000);
        // A request's own precision (the CLI's --precision) is shown and offered.
        result.request.p99PrecisionPoints = 0.3;
        page.showResult(result);
        QCOMPARE(target->currentData().toDouble(), 0.3);
        QCOMPARE(page.precisionText(QStringLiteral("Documents")),
                 QStringLiteral("sample; %1 needed")
                     .arg(Format::count(SamplePrecision::sampleForP99Within(0.3))));
        // A full scan is exact: no intervals.
        {
            DumpFileSource source(m_feeds);
            result.profile = Analyzer::run(source, AnalysisOptions{});
        }
        page.showResult(result);
        QVERIFY(page.precisionText(QStringLiteral("Size p50")).isEmpty());
        QVERIFY(page.precisionText(QStringLiteral("Largest")).isEmpty());
        QVERIFY(!target->isVisibleTo(&page));
    }

    // Alt+letter reaches one thing: no two mnemonics of what is on screen together (the menu
    // bar, the tabs, the visible buttons and labels of each tab in turn) share a letter.
    // (Alt+A opened the Arrays tab instead of the Analysis menu; Alt+R pressed Run or Use
    // recommended.)
    void mnemonicsAreUniqueOnScreen()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        DemoLauncher demo(&window);
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runDemo(QStringLiteral("book_sales"));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(window.collectionView()->isApplied(), 10000);
        QTabWidget *tabs = window.collectionView()->tabs();
        for (int t = 0; t < tabs->count(); ++t) {
            tabs->setCurrentIndex(t);
            QStringList more;
            for (QAction *menu : window.menuBar()->actions())
                more << menu->text();
            for (int k = 0; k < tabs->count(); ++k)
                more << tabs->tabText(k);
            const QStringList clashes = guifixtures::mnemonicClashes(&window, more);
            QVERIFY2(clashes.isEmpty(), qPrintable(tabs->tabText(t) + QStringLiteral(": ") +
                                                   clashes.join(QStringLiteral("; "))));
        }
    }

    void windowIconIsTheAppIcon()
    {
        const QIcon icon = AppIcon::icon();
        QVERIFY(!icon.isNull());
        QCOMPARE(AppIcon::id(), QStringLiteral("io.github.outlier_explorer.OutlierExplorer"));
        for (const int size : {16, 32, 48, 256}) {
            QVERIFY(icon.availableSizes().contains(QSize(size, size)));
            // The orange outlier bar, above the frame, at the top right.
            const QImage image = icon.pixmap(size, size).toImage();
            const QColor bar = image.pixelColor(size * 102 / 128, size * 12 / 128);
            QVERIFY2(bar.red() > 200 && bar.blue() < 120, qPrintable(bar.name()));
        }
    }
};

QTEST_MAIN(TestGuiWindow)
#include "tst_guiwindow.moc"
