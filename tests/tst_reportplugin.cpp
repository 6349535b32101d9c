#include "CliRunner.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

// The CLI links no desktop library: `report` draws its charts through the oe-report plugin
// (lib/outlier-explorer/plugins/ beside bin/), and says in one line when the plugin is missing or
// is not the renderer, while every other command runs without it.
class TestReportPlugin : public QObject
{
    Q_OBJECT

    // Any program (readelf, ldd, a copy of the CLI), through the fixtures' runner.
    static CliRun run(const QString &program, const QStringList &args)
    {
        return runCliThrough(program, {}, args, 120000);
    }
    // The CLI copied into `root`/bin, with nothing (or `plugin`) at
    // root/lib/outlier-explorer/plugins/.
    QString copyOfTheCli(const QString &root, const QString &plugin = {})
    {
        QDir().mkpath(root + QStringLiteral("/bin"));
        const QString copy = root + QStringLiteral("/bin/outlier-explorer-cli");
        if (!QFile::copy(m_cli, copy))
            return {};
        QFile::setPermissions(copy, QFile::permissions(m_cli));
        if (!plugin.isEmpty()) {
            QDir().mkpath(root + QStringLiteral("/lib/outlier-explorer/plugins"));
            QFile::copy(plugin,
                        root + QStringLiteral("/lib/outlier-explorer/plugins/liboe-report.so"));
        }
        return copy;
    }
    static QStringList lines(const QString &text)
    {
        QStringList out = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        out.removeIf(
            [](const QString &l) { return l.startsWith(QLatin1String("QStandardPaths")); });
        return out;
    }

    QTemporaryDir m_dir;
    QString m_cli;
    QString m_books;

private slots:
    void initTestCase()
    {
        m_cli = qEnvironmentVariable("OE_CLI");
        QVERIFY2(QFile::exists(m_cli),
                 "set OE_CLI to the outlier-explorer-cli binary (CTest does)");
        const CliRun r = run(m_cli, {QStringLiteral("demo-data"), QStringLiteral("--dataset"),
                                     QStringLiteral("book_sales"), QStringLiteral("--out"),
                                     m_dir.filePath(QStringLiteral("demo"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_books = m_dir.filePath(QStringLiteral("demo/book_sales.bson"));
    }

    void cliLinksNoDesktopLibrary()
    {
        const CliRun r = run(QStringLiteral("readelf"), {QStringLiteral("-d"), m_cli});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QStringList needed;
        for (const QString &line : r.out.split(QLatin1Char('\n')))
            if (line.contains(QLatin1String("(NEEDED)")))
                needed << line.section(QLatin1Char('['), 1).section(QLatin1Char(']'), 0, 0);
        QVERIFY2(needed.contains(QStringLiteral("libQt6Core.so.6")),
                 qPrintable(needed.join(QLatin1Char(' '))));
        QVERIFY2(needed.contains(QStringLiteral("libmongoc-1.0.so.0")),
                 qPrintable(needed.join(QLatin1Char(' '))));
        for (const QString &lib : needed)
            for (const char *desktop :
                 {"Widgets", "Gui", "PrintSupport", "Svg", "DBus", "QCustomPlot", "keychain"})
                QVERIFY2(!lib.contains(QLatin1String(desktop), Qt::CaseInsensitive),
                         qPrintable(QStringLiteral("the CLI links %1").arg(lib)));
    }

    void reportDrawsItsChartsThroughThePlugin()
    {
        const QString plugin = QFileInfo(m_cli).absolutePath() +
                               QStringLiteral("/../lib/outlier-explorer/plugins/liboe-report.so");
        QVERIFY2(QFile::exists(plugin), qPrintable(plugin));
        const QString out = m_dir.filePath(QStringLiteral("books.html"));
        const CliRun r = run(m_cli, {QStringLiteral("report"), QStringLiteral("--dump"), m_books,
                                     QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile html(out);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray text = html.readAll();
        QVERIFY(text.contains("<svg")); // the charts, drawn by QCustomPlot in the plugin
        QVERIFY(text.contains("book_sales.bson"));
    }

    // Without the plugin: --help and the other commands answer, writing a report fails in one
    // line naming the file it looked for, and writes nothing.
    void missingPluginIsOneLine()
    {
        const QString root = m_dir.filePath(QStringLiteral("headless"));
        const QString cli = copyOfTheCli(root);
        QVERIFY(!cli.isEmpty());
        const QString out = m_dir.filePath(QStringLiteral("never.html"));
        const CliRun r = run(cli, {QStringLiteral("report"), QStringLiteral("--dump"), m_books,
                                   QStringLiteral("--out"), out, QStringLiteral("--quiet")});
        QCOMPARE(r.exitCode, 3);
        const QStringList err = lines(r.err);
        QCOMPARE(err.size(), 1);
        QVERIFY2(err.first().startsWith(QStringLiteral("outlier-explorer-cli: report: the report "
                                                       "renderer ")) &&
                     err.first().contains(root + QStringLiteral("/lib/outlier-explorer/plugins/"
                                                                "liboe-report.so")) &&
                     err.first().contains(QStringLiteral("not installed")),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        QCOMPARE(run(cli, {QStringLiteral("report"), QStringLiteral("--help")}).exitCode, 0);
        const CliRun analyse =
            run(cli, {QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                      QStringLiteral("--out"), m_dir.filePath(QStringLiteral("csv")),
                      QStringLiteral("--quiet")});
        QVERIFY2(analyse.exitCode == 0, qPrintable(analyse.err));
    }

    // A file in the plugin's place that is not the renderer (here: libz) is refused, by name.
    void foreignLibraryIsRefused()
    {
        const QString root = m_dir.filePath(QStringLiteral("foreign"));
        const CliRun ldd = run(QStringLiteral("ldd"), {m_cli});
        QString zlib;
        for (const QString &line : ldd.out.split(QLatin1Char('\n')))
            if (line.contains(QLatin1String("libz.so")))
                zlib = line.section(QStringLiteral("=> "), 1).section(QLatin1Char(' '), 0, 0);
        QVERIFY2(QFile::exists(zlib), qPrintable(ldd.out));
        const QString cli = copyOfTheCli(root, zlib);
        QVERIFY(!cli.isEmpty());
        const CliRun r =
            run(cli, {QStringLiteral("report"), QStringLiteral("--dump"), m_books,
                      QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.html"))});
        QCOMPARE(r.exitCode, 3);
        const QStringList err = lines(r.err);
        QCOMPARE(err.size(), 1);
        QVERIFY2(err.first().contains(QStringLiteral("is not Outlier Explorer's report renderer")),
                 qPrintable(r.err));
    }
};

QTEST_MAIN(TestReportPlugin)
#include "tst_reportplugin.moc"
