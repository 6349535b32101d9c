// The explorer against a real FerretDB server: browse the catalog, analyse a collection
// (equal to the analysis of the dump it was imported from), open an outlier by _id.
#include "AnalysisOptionsBar.h"
#include "CollectionView.h"
#include "ConnectionDialog.h"
#include "DocumentLoader.h"
#include "GuiFixtures.h"
#include "LiveDocuments.h"
#include "MainWindow.h"
#include "ScanCheckpoint.h"
#include "SourceTreeModel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace oe;

class TestGuiLive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
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

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_uri = fixtures::liveUri();
        QVERIFY2(!m_uri.isEmpty(), "no FerretDB fixture (OE_LIVE_DIR/plain/env)");
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
        QVERIFY2(text.contains(QStringLiteral("FerretDB")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("$sample")), qPrintable(text)); // the fallback note
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

    // Ranges: the option is there for a collection's full scan only, and the parallel scan
    // gives the figures of the single cursor, its plan shown under the headline.
    void parallelFullScan()
    {
        MainWindow window;
        QVERIFY2(connectTo(window), qPrintable(window.lastError()));
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex feeds = model->findCollection(
            model->index(0, 0), QStringLiteral("oe_gui"), QStringLiteral("feeds"));
        QVERIFY(feeds.isValid());
        window.sourceTree()->setCurrentIndex(feeds);
        AnalysisOptionsBar *bar = window.optionsBar();
        bar->modeBox()->setCurrentIndex(
            bar->modeBox()->findData(int(AnalysisOptions::Mode::Sample)));
        QVERIFY(!bar->parallelBox()->isEnabled());
        bar->modeBox()->setCurrentIndex(bar->modeBox()->findData(int(AnalysisOptions::Mode::Full)));
        QVERIFY(bar->parallelBox()->isEnabled());
        bar->parallelBox()->setValue(3);
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
};

QTEST_MAIN(TestGuiLive)
#include "tst_guilive.moc"
