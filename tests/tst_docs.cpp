// The documents stay true to the code: the reference names every command and every option the
// CLI's --help lists, the architecture document names every room of core, ui and app, the
// README stays a front page (at most 250 lines), and every relative link of the documents
// points at a file the repository holds.
#include "CliHelp.h"
#include "CliRunner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

namespace {

const QString kSource = QStringLiteral(OE_SOURCE_DIR);

QString readSource(const QString &path)
{
    QFile file(kSource + QLatin1Char('/') + path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QStringList commands()
{
    return fixtures::commandsOf(runCli({QStringLiteral("--help")}).out);
}

// The long options of a command's --help, Qt's own left out.
QStringList longOptions(const QString &command)
{
    QStringList out = fixtures::longOptionsOf(runCli({command, QStringLiteral("--help")}).out);
    out.removeAll(QStringLiteral("--help"));
    out.removeAll(QStringLiteral("--help-all"));
    return out;
}

// The folders directly under `dir` of the source tree (its rooms).
QStringList roomsOf(const QString &dir)
{
    return QDir(kSource + QLatin1Char('/') + dir)
        .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace

class TestDocs : public QObject
{
    Q_OBJECT
private slots:
    void referenceNamesEveryCommandAndOption()
    {
        const QString reference = readSource(QStringLiteral("resources/help/reference.md"));
        QVERIFY(reference.size() > 10000);
        const QStringList all = commands();
        QVERIFY2(all.size() >= 10, qPrintable(all.join(u' ')));
        QStringList missing;
        for (const QString &command : all) {
            if (!reference.contains(QStringLiteral("outlier-explorer-cli %1").arg(command)) &&
                !reference.contains(QStringLiteral("`%1`").arg(command)))
                missing << command;
            const QStringList options = longOptions(command);
            QVERIFY2(!options.isEmpty(), qPrintable(command));
            for (const QString &option : options)
                if (!reference.contains(option))
                    missing << command + QLatin1Char(' ') + option;
        }
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("not in resources/help/reference.md: ") +
                            missing.join(QStringLiteral(", "))));
    }

    void architectureNamesEveryRoom()
    {
        const QString architecture = readSource(QStringLiteral("core/ARCHITECTURE.md"));
        QVERIFY(!architecture.isEmpty());
        QStringList missing;
        for (const QString &top :
             {QStringLiteral("core"), QStringLiteral("ui"), QStringLiteral("app")})
            for (const QString &room : roomsOf(top))
                if (!architecture.contains(QStringLiteral("`%1`").arg(room)))
                    missing << top + QLatin1Char('/') + room;
        QVERIFY(roomsOf(QStringLiteral("core")).size() >= 20);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("rooms core/ARCHITECTURE.md does not "
                                                              "name: ") +
                                               missing.join(QStringLiteral(", "))));
    }

    void readmeIsAFrontPage()
    {
        const QString readme = readSource(QStringLiteral("README.md"));
        QVERIFY(!readme.isEmpty());
        QVERIFY2(readme.count(QLatin1Char('\n')) <= 250,
                 qPrintable(QString::number(readme.count(QLatin1Char('\n')))));
        // The two commands, and .ci/run is the test command.
        QVERIFY(readme.contains(QLatin1String("bash packaging/run-demo.sh")));
        QVERIFY(readme.contains(QLatin1String("bash packaging/run-tests.sh")));
        QVERIFY(readSource(QStringLiteral(".ci/run"))
                    .contains(QLatin1String("packaging/run-tests.sh")));
        // One table of commands: each of the CLI's.
        for (const QString &command : commands())
            QVERIFY2(readme.contains(QStringLiteral("| `%1` |").arg(command)), qPrintable(command));
    }

    void linksPointAtFiles_data()
    {
        QTest::addColumn<QString>("document");
        for (const char *path :
             {"README.md", "resources/help/reference.md", "tests/README.md",
              "tests/benchmarks/README.md", "core/ARCHITECTURE.md", "packaging/README.md"})
            QTest::newRow(path) << QString::fromLatin1(path);
    }

    void linksPointAtFiles()
    {
        QFETCH(QString, document);
        const QString text = readSource(document);
        QVERIFY2(!text.isEmpty(), qPrintable(document));
        const QDir here = QFileInfo(kSource + QLatin1Char('/') + document).dir();
        static const QRegularExpression link(QStringLiteral("\\]\\(([^)#\\s]+)[^)]*\\)"));
        int links = 0;
        for (auto it = link.globalMatch(text); it.hasNext();) {
            const QString target = it.next().captured(1);
            if (target.contains(QLatin1String("://")) ||
                target.startsWith(QLatin1String("mailto:")))
                continue;
            ++links;
            QVERIFY2(QFileInfo::exists(here.filePath(target)),
                     qPrintable(document + QStringLiteral(": ") + target));
        }
        QVERIFY2(links > 0, qPrintable(document));
    }
};

QTEST_GUILESS_MAIN(TestDocs)
#include "tst_docs.moc"
