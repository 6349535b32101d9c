// Analysis → What if… against the real server (mongod and FerretDB): each size's row in the
// table and on the chart as it is measured, the CSV export equal to whatif.csv's columns, the
// legacy write path said where the server has no update pipelines (FerretDB), Stop ending a
// run with the scratch database dropped.
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "dialogs/WhatIfDialog.h"

#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace oe;

class TestWhatIfDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    ConnectionSettings m_settings;

private slots:
    void initTestCase()
    {
        m_settings.uri = fixtures::liveUri();
        QVERIFY2(!m_settings.uri.isEmpty(), "no live server fixture (OE_LIVE_DIR/plain/env)");
    }

    void rowsTableChartAndCsv()
    {
        WhatIfDialog dialog(QStringLiteral("plain"), m_settings);
        dialog.show();
        dialog.sizesEdit()->setText(QStringLiteral("10, 200"));
        dialog.opsBox()->setValue(5);
        QSignalSpy finished(&dialog, &WhatIfDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(finished.first().last().toString()));
        QTRY_COMPARE(dialog.table()->rowCount(), 2);
        QCOMPARE(dialog.table()->item(1, 0)->text(), QStringLiteral("200"));
        QCOMPARE(dialog.chart()->graph(0)->dataCount(), 2);
        QCOMPARE(dialog.chart()->graph(1)->dataCount(), 2);
        QVERIFY(dialog.rows()[1].unboundedMeanMs > 0 && dialog.rows()[1].splitMeanMs > 0);
        QCOMPARE(dialog.status()->text().contains(QStringLiteral("legacy write path")),
                 fixtures::LiveServer::open().isFerretDb());
        const QString csv = m_dir.filePath(QStringLiteral("whatif.csv"));
        QVERIFY(dialog.exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QVERIFY(lines[0].startsWith("elements,document_bytes,unbounded_ms_mean"));
        QVERIFY(lines[2].startsWith("200,"));
    }

    // The layout is the user's: the element size typed is the one timed (the document holds
    // 1,000 elements of about that many bytes), keep and page size go to the benchmark, and the
    // dialog says the figures are this server's.
    void layoutIsTheUsers()
    {
        WhatIfDialog dialog(QStringLiteral("plain"), m_settings);
        dialog.show();
        QVERIFY(dialog.status()->text().contains(QStringLiteral("this server's")));
        dialog.sizesEdit()->setText(QStringLiteral("1000"));
        dialog.opsBox()->setValue(2);
        dialog.setLayout(20, 100, 400);
        QCOMPARE(dialog.keepBox()->value(), 20);
        QCOMPARE(dialog.pageSizeBox()->value(), 100);
        QSignalSpy finished(&dialog, &WhatIfDialog::finished);
        dialog.start();
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(finished.first().last().toString()));
        QTRY_COMPARE(dialog.rows().size(), std::size_t(1));
        const std::uint64_t bytes = dialog.rows().front().documentBytes;
        QVERIFY2(bytes > 1000 * 400 * 9 / 10 && bytes < 1000 * 400 * 13 / 10,
                 qPrintable(QString::number(bytes)));
    }

    void badSizesAreRefused()
    {
        WhatIfDialog dialog(QStringLiteral("plain"), m_settings);
        dialog.sizesEdit()->setText(QStringLiteral("10,lots"));
        dialog.start();
        QVERIFY2(dialog.status()->text().contains(QStringLiteral("'lots'")),
                 qPrintable(dialog.status()->text()));
        QCOMPARE(dialog.table()->rowCount(), 0);
    }

    void stopEndsTheRun()
    {
        WhatIfDialog dialog(QStringLiteral("plain"), m_settings);
        dialog.sizesEdit()->setText(QStringLiteral("10,3000"));
        dialog.opsBox()->setValue(100000);
        QSignalSpy finished(&dialog, &WhatIfDialog::finished);
        dialog.start();
        QTest::qWait(1500);
        dialog.stop();
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY2(finished.first().last().toString().contains(QStringLiteral("interrupted")),
                 qPrintable(finished.first().last().toString()));
    }
};

QTEST_MAIN(TestWhatIfDialog)
#include "tst_whatifdialog.moc"
