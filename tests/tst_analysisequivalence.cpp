#include "CliRunner.h"
#include "GuiFixtures.h"
#include "charts/Format.h"
#include "explore/AnalysisSession.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/ArraysPage.h"
#include "pages/CollectionView.h"
#include "pages/SplitPreviewPage.h"
#include "report/ReportWriter.h"
#include "widgets/ThresholdControl.h"
#include "workspace/SourceState.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace oe;

// The desktop app and the CLI drive one analysis pipeline (AnalysisSession): for the same
// request, the GUI's worker and export write byte-identical CSV reports to the CLI's, across
// detection methods, presets, thresholds, recommendation targets and read modes. Only the
// elapsed time in summary.csv may differ.
class TestAnalysisEquivalence : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_books, m_feeds;

    struct Case
    {
        const char *name;
        QStringList cliArgs;
        std::function<void(AnalysisRequest &)> sameForGui;
    };
    static const std::vector<Case> &cases()
    {
        static const std::vector<Case> all = {
            {"defaults", {}, [](AnalysisRequest &) {}},
            {"percentile 90",
             {QStringLiteral("--method"), QStringLiteral("percentile"),
              QStringLiteral("--percentile"), QStringLiteral("90")},
             [](AnalysisRequest &r) {
                 r.detection.method = OutlierMethod::Percentile;
                 r.detection.parameters.percentile = 90;
             }},
            {"mad 2.5",
             {QStringLiteral("--method"), QStringLiteral("mad"), QStringLiteral("--mad-z"),
              QStringLiteral("2.5")},
             [](AnalysisRequest &r) {
                 r.detection.method = OutlierMethod::Mad;
                 r.detection.parameters.madZ = 2.5;
             }},
            {"preset atlas",
             {QStringLiteral("--preset"), QStringLiteral("atlas")},
             [](AnalysisRequest &r) {
                 r.detection.method = OutlierMethod::Absolute;
                 r.detection.preset = *ThresholdPreset::byName(QStringLiteral("atlas"));
             }},
            {"fence 3, target 64 KiB",
             {QStringLiteral("--fence-k"), QStringLiteral("3"),
              QStringLiteral("--target-primary-bytes"), QStringLiteral("65536")},
             [](AnalysisRequest &r) {
                 r.detection.parameters.fenceK = 3;
                 r.targetPrimaryBytes = 65536;
             }},
            {"explicit thresholds",
             {QStringLiteral("--size-threshold"), QStringLiteral("30000"),
              QStringLiteral("--array-threshold"), QStringLiteral("100")},
             [](AnalysisRequest &r) {
                 r.detection.sizeThreshold = 30000;
                 r.detection.arrayThreshold = 100;
             }},
            {"sample 300, seed 7",
             {QStringLiteral("--sample"), QStringLiteral("300"), QStringLiteral("--seed"),
              QStringLiteral("7")},
             [](AnalysisRequest &r) {
                 r.selection.mode = AnalysisOptions::Mode::Sample;
                 r.selection.count = 300;
                 r.selection.seed = 7;
             }},
            {"first 150",
             {QStringLiteral("--limit"), QStringLiteral("150")},
             [](AnalysisRequest &r) {
                 r.selection.mode = AnalysisOptions::Mode::Limit;
                 r.selection.count = 150;
             }},
        };
        return all;
    }

    // The GUI path: its workspace and its export.
    static QString viaGui(const AnalysisRequest &request, const QString &out)
    {
        const AnalysisResult result = guifixtures::analyseInWorkspace(request);
        QString error;
        ReportWriter::write(out, ReportWriter::Report::of(result), &error);
        return error;
    }
    static QByteArray withoutElapsedTime(const QByteArray &summary)
    {
        QList<QByteArray> lines = summary.split('\n');
        lines.removeIf([](const QByteArray &l) { return l.startsWith("seconds,"); });
        return lines.join('\n');
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_books = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 1000);
        m_feeds = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"), 120);
    }

    void sameRequestSameReports_data()
    {
        QTest::addColumn<QString>("dump");
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(cases().size()); ++i) {
            QTest::addRow("book sales, %s", cases()[std::size_t(i)].name) << m_books << i;
            QTest::addRow("activity feeds, %s", cases()[std::size_t(i)].name) << m_feeds << i;
        }
    }
    void sameRequestSameReports()
    {
        QFETCH(QString, dump);
        QFETCH(int, index);
        const Case &c = cases()[std::size_t(index)];
        const QString tag =
            QString::fromLatin1(QTest::currentDataTag())
                .replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("_"));
        const QString cliOut = m_dir.filePath(QStringLiteral("cli_") + tag);
        const QString guiOut = m_dir.filePath(QStringLiteral("gui_") + tag);

        const CliRun r =
            runCli(QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                               QStringLiteral("--out"), cliOut, QStringLiteral("--quiet")} +
                   c.cliArgs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        AnalysisRequest request; // what the GUI sends: a full scan of the dump unless told
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = dump;
        request.selection.mode = AnalysisOptions::Mode::Full;
        c.sameForGui(request);
        QCOMPARE(viaGui(request, guiOut), QString());

        const QStringList files = QDir(cliOut).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 10);
        QCOMPARE(QDir(guiOut).entryList(QDir::Files, QDir::Name), files);
        for (const QString &name : files) {
            QFile a(QDir(cliOut).filePath(name)), b(QDir(guiOut).filePath(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QByteArray cli = a.readAll(), gui = b.readAll();
            if (name == QLatin1String("summary.csv")) {
                cli = withoutElapsedTime(cli);
                gui = withoutElapsedTime(gui);
            }
            QVERIFY2(cli == gui, qPrintable(name + QStringLiteral(" differs")));
            QVERIFY(cli.count('\n') >= 1); // at least the header
        }
    }

    // Thresholds chosen on the charts (the state's) export what the CLI writes when given them.
    void chosenThresholdsExportLikeTheCli()
    {
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = m_books;
        request.selection.mode = AnalysisOptions::Mode::Full;
        SourceState state;
        state.setResult(AnalysisSession::run(request));
        const std::uint64_t bytes = state.sizeThreshold() / 2;
        const std::uint64_t keep = 40;
        QSignalSpy outliers(&state, &SourceState::outliersChanged);
        state.setSizeThreshold(bytes);
        state.setKeep(keep);
        QVERIFY(outliers.wait(5000));
        QCOMPARE(state.result().outliers.size.value, bytes);
        QVERIFY(state.result().outliers.rows.size() > state.analysis().outliers.rows.size());

        const QString guiOut = m_dir.filePath(QStringLiteral("gui_chosen"));
        const QString cliOut = m_dir.filePath(QStringLiteral("cli_chosen"));
        QString error;
        QVERIFY2(ReportWriter::write(guiOut, ReportWriter::Report::of(state.result()), &error),
                 qPrintable(error));
        const CliRun r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                                 QStringLiteral("--out"), cliOut, QStringLiteral("--quiet"),
                                 QStringLiteral("--size-threshold"), QString::number(bytes),
                                 QStringLiteral("--array-threshold"), QString::number(keep)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const QString &name : QDir(cliOut).entryList(QDir::Files, QDir::Name)) {
            QFile a(QDir(cliOut).filePath(name)), b(QDir(guiOut).filePath(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QByteArray cli = a.readAll(), gui = b.readAll();
            if (name == QLatin1String("summary.csv")) {
                cli = withoutElapsedTime(cli);
                gui = withoutElapsedTime(gui);
            }
            QVERIFY2(cli == gui, qPrintable(name + QStringLiteral(" differs")));
        }
    }

    // Arrays, Split preview and `split --dry-run` give one "largest primary after": SplitPlanner's.
    void largestPrimaryAfterIsTheDryRuns()
    {
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = m_feeds;
        request.selection.mode = AnalysisOptions::Mode::Full;
        SourceState state;
        CollectionView view;
        view.setState(&state);
        state.setResult(AnalysisSession::run(request));
        QTRY_VERIFY_WITH_TIMEOUT(view.isApplied(), 10000);
        const QString field = state.path();
        QVERIFY(!field.isEmpty());
        for (const std::uint64_t keep : {std::uint64_t(0), std::uint64_t(25), state.keep()}) {
            state.setKeep(keep);
            QTRY_VERIFY_WITH_TIMEOUT(state.planIsCurrent(), 20000);
            const std::uint64_t largest = state.plan().largestPrimaryAfter;
            QVERIFY(largest > 0);
            const QString shown = Format::bytes(largest);
            QTRY_VERIFY_WITH_TIMEOUT(view.arrays()->control()->countersText().endsWith(
                                         QStringLiteral("largest primary after ") + shown),
                                     5000);
            QTRY_VERIFY_WITH_TIMEOUT(view.splitPreview()->planSummary()->text().contains(
                                         QStringLiteral("largest primary after ") + shown),
                                     5000);
            const CliRun r = runCli({QStringLiteral("split"), QStringLiteral("--dump"), m_feeds,
                                     QStringLiteral("--field"), field, QStringLiteral("--keep"),
                                     QString::number(keep), QStringLiteral("--dry-run"),
                                     QStringLiteral("--out-dir"), m_dir.path()});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QString expected =
                QLocale::c().formattedDataSize(qint64(largest), 1, QLocale::DataSizeIecFormat);
            QVERIFY2(r.out.contains(QStringLiteral("largest primary after: %1 (").arg(expected)),
                     qPrintable(r.out));
            // The elements and bytes that move: the dry run's exact figures on Arrays too, not
            // the analysis' estimate ("≈ 6.2 MiB" beside a preview's 6.3 MiB).
            const SplitPlan &plan = state.plan();
            const QString counters = view.arrays()->control()->countersText();
            QVERIFY2(counters.contains(QStringLiteral("%1 elements would move (%2)")
                                           .arg(Format::count(plan.elementsMoved),
                                                Format::bytes(plan.bytesMoved))),
                     qPrintable(counters));
            QVERIFY2(!counters.contains(QStringLiteral("≈")), qPrintable(counters));
            QVERIFY2(r.out.contains(
                         QStringLiteral("elements to move: %1 (%2)")
                             .arg(QLocale::c().toString(qulonglong(plan.elementsMoved)),
                                  QLocale::c().formattedDataSize(qint64(plan.bytesMoved), 1,
                                                                 QLocale::DataSizeIecFormat))),
                     qPrintable(r.out));
        }
    }

    // The options bar offers the CLI's methods and presets: its request carries them.
    void optionsBarOffersTheClisRules()
    {
        AnalysisOptionsBar bar;
        SourceRef dump;
        dump.kind = SourceRef::Kind::Dump;
        dump.dumpPath = m_books;
        QStringList offered;
        for (int i = 0; i < bar.ruleBox()->count(); ++i) {
            bar.ruleBox()->setCurrentIndex(i);
            const DetectionOptions d = bar.request(dump).detection;
            offered << (d.method == OutlierMethod::Absolute
                            ? QStringLiteral("absolute:") + d.preset.name
                            : methodName(d.method));
        }
        QStringList expected{QStringLiteral("iqr"), QStringLiteral("mad"),
                             QStringLiteral("percentile")};
        for (const QString &preset : ThresholdPreset::names())
            expected << QString(QStringLiteral("absolute:") + preset);
        QCOMPARE(offered, expected);
        // And a rule chosen there exports what `analyze --method` writes.
        bar.ruleBox()->setCurrentIndex(bar.ruleBox()->findData(QStringLiteral("absolute:atlas")));
        AnalysisRequest request = bar.request(dump);
        request.selection.mode = AnalysisOptions::Mode::Full;
        const QString guiOut = m_dir.filePath(QStringLiteral("gui_atlas"));
        QCOMPARE(viaGui(request, guiOut), QString());
        const QString cliOut = m_dir.filePath(QStringLiteral("cli_atlas"));
        const CliRun r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                                 QStringLiteral("--out"), cliOut, QStringLiteral("--quiet"),
                                 QStringLiteral("--method"), QStringLiteral("absolute"),
                                 QStringLiteral("--preset"), QStringLiteral("atlas")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const char *name : {"outliers.csv", "recommendations.csv"}) {
            QFile a(QDir(cliOut).filePath(QLatin1String(name))),
                b(QDir(guiOut).filePath(QLatin1String(name)));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), name);
        }
    }
};

QTEST_MAIN(TestAnalysisEquivalence)
#include "tst_analysisequivalence.moc"
