// Schema versions in the window (issue 39), driven as a user would on the demo's customer
// profiles: the Shape tab lists the CLI's shape_outliers.csv rows (the flags within each version
// first, the differences between versions greyed and explained last), names the version field
// it found and each version's share as the CLI prints them; choosing "(none)" in the version
// box shows the whole collection's flags as `--version-field none` writes them; a typed field
// the scan did not look for says so, and the next analysis looks for it.
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "GuiFixtures.h"
#include "explorer/MainWindow.h"
#include "pages/CollectionView.h"
#include "pages/SchemaVersionsBox.h"
#include "pages/ShapePage.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

class TestGuiVersions : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_dump;

    QList<QStringList> cliFlags(const QString &name, const QStringList &extra, QString *out)
    {
        const QString dir = m_dir.filePath(name);
        const CliRun r =
            runCli(QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"), m_dump,
                               QStringLiteral("--out"), dir, QStringLiteral("--no-history")} +
                   extra);
        if (r.exitCode != 0)
            qFatal("CLI failed: %s", qPrintable(r.err));
        *out = r.out;
        return csvtest::readFile(dir + QStringLiteral("/shape_outliers.csv"));
    }

    // The table against the CSV: row for row, the text of each column the tab shows.
    static QString differences(const QTableWidget *flags, const QList<QStringList> &csv)
    {
        if (flags->rowCount() != csv.size() - 1)
            return QStringLiteral("%1 rows, the CSV %2").arg(flags->rowCount()).arg(csv.size() - 1);
        const qsizetype version = csv.first().indexOf(QStringLiteral("version"));
        const qsizetype explained = csv.first().indexOf(QStringLiteral("explained_by"));
        for (int r = 0; r < flags->rowCount(); ++r) {
            const QStringList &row = csv[r + 1];
            for (int c : {int(ShapePage::Kind), int(ShapePage::Path), int(ShapePage::Type),
                          int(ShapePage::Count), int(ShapePage::Total), int(ShapePage::Detail),
                          int(ShapePage::Examples)})
                if (flags->item(r, c)->text() != row.value(c))
                    return QStringLiteral("row %1 column %2: %3, the CSV %4")
                        .arg(r)
                        .arg(c)
                        .arg(flags->item(r, c)->text(), row.value(c));
            const QString shown = flags->item(r, ShapePage::Version)->text();
            const bool isExplained = !row.value(explained).isEmpty();
            if (isExplained ? flags->item(r, ShapePage::Kind)->toolTip() != row.value(explained)
                            : shown != row.value(version))
                return QStringLiteral("row %1: version %2, the CSV %3 / %4")
                    .arg(r)
                    .arg(shown, row.value(version), row.value(explained));
        }
        return {};
    }

    static void type(QComboBox *box, const QString &text)
    {
        QLineEdit *edit = box->lineEdit();
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("customer_profiles"));
    }

    void theTabShowsTheVersionsAsTheCliDoes()
    {
        QString printed, printedOff;
        const QList<QStringList> csv = cliFlags(QStringLiteral("found"), {}, &printed);
        const QList<QStringList> whole =
            cliFlags(QStringLiteral("none"),
                     {QStringLiteral("--version-field"), QStringLiteral("none")}, &printedOff);
        QCOMPARE(csv.size(), 8);   // four within versions, three explained
        QCOMPARE(whole.size(), 6); // the whole collection's five
        QVERIFY2(printed.contains(QStringLiteral(
                     "versions by schema_version (found): 1 72.5 % (2176), 2 6.7 % (200), 3 0.8 % "
                     "(24), (none) 20.0 % (600)")),
                 qPrintable(printed));

        MainWindow window;
        guifixtures::openForFullScan(window, m_dump);
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(60000));
        QVERIFY(QTest::qWaitFor([&] { return window.collectionView()->isApplied(); }, 10000));
        QVERIFY(window.collectionView()->showTab(QStringLiteral("shape")));
        ShapePage *page = window.collectionView()->shape();
        QTableWidget *flags = page->flagsTable();
        SchemaVersionsBox *box = page->versionsBox();
        QCOMPARE(box->fieldBox()->currentText(), QStringLiteral("schema_version (found)"));
        QVERIFY2(box->sharesLabel()->text().startsWith(QStringLiteral(
                     "1: 72.5 % (2,176) · 2: 6.7 % (200) · 3: 0.8 % (24) · (none): 20.0 % (600). "
                     "3 of the whole collection's flags are differences between versions")),
                 qPrintable(box->sharesLabel()->text()));
        QString diff = differences(flags, csv);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY2(page->summaryLabel()->text().startsWith(QStringLiteral("4 schema outliers")),
                 qPrintable(page->summaryLabel()->text()));

        // A flag within version 2: its query names the version; no guard for the collection.
        int within = -1;
        for (int r = 0; r < flags->rowCount(); ++r)
            if (flags->item(r, ShapePage::Version)->text() == QStringLiteral("schema_version 2"))
                within = r;
        QVERIFY(within >= 0);
        flags->setCurrentCell(within, ShapePage::Detail);
        QCOMPARE(page->queryEdit()->text(),
                 QStringLiteral(R"({ "schema_version" : 2, "address" : { "$type" : "string" } })"));
        QVERIFY(!page->typeGuardButton()->isEnabled());

        // No versions: the whole collection's flags, as the CLI writes them without.
        type(box->fieldBox(), QStringLiteral("(none)"));
        QTRY_COMPARE(flags->rowCount(), 5);
        diff = differences(flags, whole);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(box->sharesLabel()->text(), QStringLiteral("schema versions not looked for"));

        // A field the scan did not look for: it says so; the next analysis looks for it.
        type(box->fieldBox(), QStringLiteral("name"));
        QTRY_COMPARE(box->sharesLabel()->text(),
                     QStringLiteral("the version field name was not looked for in every "
                                    "document: analyse again with it named"));
        finished.clear();
        window.runAnalysis();
        QVERIFY(finished.wait(60000));
        QTRY_COMPARE(box->sharesLabel()->text(),
                     QStringLiteral("name has more than 12 distinct values: a counter, not a "
                                    "schema version"));
        QCOMPARE(box->fieldBox()->currentText(), QStringLiteral("name"));
    }
};

QTEST_MAIN(TestGuiVersions)
#include "tst_guiversions.moc"
