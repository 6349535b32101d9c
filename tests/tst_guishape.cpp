// The Shape tab (issue 37), driven as a user would on the demo's device readings: its flags
// are shape_outliers.csv's rows from the CLI on the same dump (kind, path, type, share, counts,
// detail, example _ids, the query), so the window and the CLI agree (the report's Shape section
// is the CSV's too: tst_report); the field tree shows each field's presence and type mix; a
// flag shows its query and reveals its path; on a dump, activating it opens its first example
// document; and the size anatomy of the example of a big binary puts the weight in that field,
// with the bars the chart draws adding up to the document, and the largest outlier's figures
// those of the CLI's anatomy.csv.
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "GuiFixtures.h"
#include "charts/AnatomyChart.h"
#include "explorer/MainWindow.h"
#include "pages/CollectionView.h"
#include "pages/ShapeFieldTree.h"
#include "pages/ShapePage.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

class TestGuiShape : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_dump;
    QList<QStringList> m_csv;     // shape_outliers.csv from the CLI, header first
    QList<QStringList> m_anatomy; // anatomy.csv of the largest outlier, from the CLI

    static int rowOf(const QTableWidget *table, const QString &kind, const QString &path)
    {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, ShapePage::Kind)->text() == kind &&
                table->item(r, ShapePage::Path)->text() == path)
                return r;
        return -1;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("device_readings"));
        const QString out = m_dir.filePath(QStringLiteral("cli"));
        const CliRun r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_dump,
                                 QStringLiteral("--out"), out, QStringLiteral("--no-history"),
                                 QStringLiteral("--anatomy"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_csv = csvtest::readFile(out + QStringLiteral("/shape_outliers.csv"));
        m_anatomy = csvtest::readFile(out + QStringLiteral("/anatomy.csv"));
        QCOMPARE(m_anatomy.size(), 2);
        QCOMPARE(m_csv.size(), 11); // the header and one row per flag
    }

    void theTabShowsTheCliFlagsTheTreeAndTheAnatomy()
    {
        MainWindow window;
        guifixtures::openForFullScan(window, m_dump);
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(60000));
        QVERIFY(QTest::qWaitFor([&] { return window.collectionView()->isApplied(); }, 10000));
        QVERIFY(window.collectionView()->showTab(QStringLiteral("shape")));
        ShapePage *page = window.collectionView()->shape();
        QTableWidget *flags = page->flagsTable();

        // The CLI's rows, in its order, with its text (the share as a percentage, its exact
        // figure in the tooltip).
        QCOMPARE(flags->rowCount(), int(m_csv.size() - 1));
        for (int r = 0; r < flags->rowCount(); ++r) {
            const QStringList &csv = m_csv[r + 1];
            for (int c : {int(ShapePage::Kind), int(ShapePage::Path), int(ShapePage::Type),
                          int(ShapePage::Count), int(ShapePage::Total), int(ShapePage::Detail),
                          int(ShapePage::Examples)})
                QCOMPARE(flags->item(r, c)->text(), csv.value(c));
            QCOMPARE(flags->item(r, ShapePage::Share)->toolTip(), csv.value(ShapePage::Share));
        }
        QVERIFY2(page->summaryLabel()->text().startsWith(QStringLiteral("10 schema outliers")),
                 qPrintable(page->summaryLabel()->text()));

        // The tree: presence and the type mix, the folded keys once.
        ShapeFieldTree *tree = page->fieldTree();
        QTreeWidgetItem *firmware = tree->itemOf("firmware");
        QVERIFY(firmware);
        QCOMPARE(firmware->text(ShapeFieldTree::Presence), QStringLiteral("100.0 % (1,500)"));
        QCOMPARE(firmware->text(ShapeFieldTree::Types),
                 QStringLiteral("int 99.6 % · string 0.4 %"));
        QCOMPARE(firmware->text(ShapeFieldTree::Flags), QStringLiteral("mixed_types"));
        QVERIFY(tree->itemOf("daily.<key>"));
        QCOMPARE(tree->itemOf("daily.<key>")->parent(), tree->itemOf("daily"));
        QCOMPARE(tree->itemOf("calibration")->text(ShapeFieldTree::Presence),
                 QStringLiteral("0.3 % (5)"));

        // A flag: its query, its path revealed; on a dump, activating it opens its first example.
        const int mixed = rowOf(flags, QStringLiteral("mixed_types"), QStringLiteral("firmware"));
        QVERIFY(mixed >= 0);
        QSignalSpy opened(page, &ShapePage::documentRequested);
        QSignalSpy anatomy(page, &ShapePage::anatomyShown);
        flags->setCurrentCell(mixed, ShapePage::Detail);
        QCOMPARE(page->queryEdit()->text(), m_csv[mixed + 1].value(9));
        QCOMPARE(tree->currentItem(), firmware);
        QCOMPARE(page->documentsButton()->text(), QStringLiteral("Open example"));
        QTest::mouseClick(page->documentsButton(), Qt::LeftButton);
        QCOMPARE(opened.size(), 1);
        const auto row = opened.first().first().value<OutlierRow>();
        QCOMPARE(row.id, QStringLiteral("\"dev-00017\""));
        QCOMPARE(row.docIndex, std::uint64_t(17));

        // The big binary's example taken apart: the weight is the diagnostics field.
        const int big = rowOf(flags, QStringLiteral("big_scalar"), QStringLiteral("diagnostics"));
        QVERIFY(big >= 0);
        anatomy.clear();
        flags->setCurrentCell(big, ShapePage::Detail);
        QVERIFY(anatomy.wait(10000));
        const SizeAnatomy &a = page->anatomy();
        QCOMPARE(a.heaviestPath, QStringLiteral("diagnostics"));
        QCOMPARE(a.heaviest.type, QStringLiteral("binData"));
        QVERIFY(a.share(a.heaviest.bytes) > 0.99);
        QCOMPARE(page->documentBox()->currentText().left(22),
                 QStringLiteral("big_scalar example \"de"));
        const auto &bars = page->anatomyChart()->bars();
        QVERIFY(!bars.empty() && bars.size() <= AnatomyChart::kBars + 1);
        QCOMPARE(bars.front().key, QStringLiteral("diagnostics"));
        qint64 sum = 5;
        for (const SizeAnatomy::Part &p : bars)
            sum += p.bytes;
        QCOMPARE(sum, a.documentBytes);
        QVERIFY2(
            page->anatomyLabel()->text().contains(QStringLiteral("The weight sits in diagnostics")),
            qPrintable(page->anatomyLabel()->text()));

        // An outlier document from the list: the largest is one of the two with the binary.
        const int outlier =
            page->documentBox()->findText(QStringLiteral("outlier "), Qt::MatchStartsWith);
        QVERIFY(outlier > 0);
        anatomy.clear();
        page->documentBox()->setCurrentIndex(outlier);
        emit page->documentBox()->activated(outlier);
        QVERIFY(anatomy.wait(10000));
        QCOMPARE(page->anatomy().heaviestPath, QStringLiteral("diagnostics"));
        // The largest outlier is the first in the list: the CLI's anatomy.csv has its figures.
        anatomy.clear();
        page->documentBox()->setCurrentIndex(outlier);
        emit page->documentBox()->activated(outlier);
        QVERIFY(anatomy.wait(10000));
        const QStringList &cli = m_anatomy[1];
        QVERIFY(page->documentBox()->currentText().contains(cli.value(0)));
        QCOMPARE(QString::number(page->anatomy().documentBytes), cli.value(2));
        QCOMPARE(page->anatomy().heaviestPath, cli.value(3));
        QCOMPARE(QString::number(page->anatomy().heaviest.bytes), cli.value(5));
    }
};

QTEST_MAIN(TestGuiShape)
#include "tst_guishape.moc"
