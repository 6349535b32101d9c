// The Debian packages as a user gets them (outlier-explorer-cli for headless servers, and
// outlier-explorer, the desktop app): built by CPack from this build tree, unpacked into one
// scratch root, their binaries run from there, its files checked by the validators Debian and
// the desktops use (lintian, desktop-file-validate, appstreamcli, man), its bash completion
// asked for completions. And the source tarball.
#include "CliHelp.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

struct Run
{
    int exitCode = -1;
    QString out, err;
};

Run run(const QString &program, const QStringList &args, const QString &workDir = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    process.setProcessEnvironment(env);
    if (!workDir.isEmpty())
        process.setWorkingDirectory(workDir);
    process.start(program, args);
    Run result;
    if (!process.waitForFinished(300000)) {
        process.kill();
        process.waitForFinished();
        result.err = QStringLiteral("%1 did not finish: %2").arg(program, process.errorString());
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString describe(const Run &r)
{
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
}

// The package names in a Depends field, as groups of alternatives.
QList<QStringList> dependencyGroups(const QString &depends)
{
    QList<QStringList> groups;
    for (const QString &group : depends.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QStringList names;
        for (QString alternative : group.split(QLatin1Char('|'))) {
            alternative = alternative.trimmed();
            names << alternative.left(alternative.indexOf(QLatin1Char(' ')) < 0
                                          ? alternative.size()
                                          : alternative.indexOf(QLatin1Char(' ')));
        }
        groups << names;
    }
    return groups;
}

bool installed(const QString &package)
{
    const Run r = run(QStringLiteral("dpkg-query"),
                      {QStringLiteral("-W"), QStringLiteral("-f=${Status}"), package});
    return r.exitCode == 0 && r.out.contains(QLatin1String("install ok installed"));
}

// The commands listed by the CLI's top-level --help.
QStringList cliCommands(const QString &cli)
{
    return fixtures::commandsOf(run(cli, {QStringLiteral("--help")}).out);
}

QByteArray withoutTimings(QByteArray csv)
{
    static const QRegularExpression seconds(QStringLiteral("^seconds,[^\\n]*\\n"),
                                            QRegularExpression::MultilineOption);
    return QString::fromUtf8(csv).remove(seconds).toUtf8();
}

} // namespace

class TestPackage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void controlFieldsNameTheRuntimeDependencies();
    void cliPackageNeedsNoDesktopLibrary();
    void packageHoldsEveryInstalledFile();
    void iconsAreRenderedFromTheSvg();
    void installedCliRunsAndAgreesWithTheBuildTree();
    void installedGuiRunsOnTheDemoData();
    void validatorsFindNoErrors();
    void appStreamReleaseIsTheProjectVersion();
    void manPagesCoverEveryCommandAndOption();
    void bashCompletionOffersCommandsOptionsAndValues();
    void sourceTarballHoldsTheSourcesOnly();

private:
    QString root(const QString &path) const { return m_root + QLatin1Char('/') + path; }
    QString field(const QString &name) const { return fieldOf(m_deb, name); }
    static QString fieldOf(const QString &deb, const QString &name);
    static QStringList filesOf(const QString &deb);
    QStringList complete(const QStringList &words) const;

    QTemporaryDir m_scratch;
    QString m_deb;    // outlier-explorer: the desktop app (and the CLI's report plugin)
    QString m_cliDeb; // outlier-explorer-cli
    QString m_root;   // both unpacked
};

void TestPackage::initTestCase()
{
    QVERIFY(m_scratch.isValid());
    const QString dist = m_scratch.filePath(QStringLiteral("dist"));
    const Run cpack =
        run(QStringLiteral(OE_CPACK),
            {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("--config"),
             QStringLiteral(OE_BUILD_DIR "/CPackConfig.cmake"), QStringLiteral("-B"), dist});
    QVERIFY2(cpack.exitCode == 0, qPrintable(describe(cpack)));
    const QStringList debs = QDir(dist).entryList({QStringLiteral("*.deb")}, QDir::Files);
    const QString arch =
        run(QStringLiteral("dpkg"), {QStringLiteral("--print-architecture")}).out.trimmed();
    const QString desktop =
        QStringLiteral("outlier-explorer_%1_%2.deb").arg(QStringLiteral(PROJECT_VERSION), arch);
    const QString cli =
        QStringLiteral("outlier-explorer-cli_%1_%2.deb").arg(QStringLiteral(PROJECT_VERSION), arch);
    QCOMPARE(debs, (QStringList{cli, desktop}));
    m_deb = dist + QLatin1Char('/') + desktop;
    m_cliDeb = dist + QLatin1Char('/') + cli;
    m_root = m_scratch.filePath(QStringLiteral("root"));
    for (const QString &deb : {m_cliDeb, m_deb}) {
        const Run unpack = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-x"), deb, m_root});
        QVERIFY2(unpack.exitCode == 0, qPrintable(describe(unpack)));
    }
}

QString TestPackage::fieldOf(const QString &deb, const QString &name)
{
    return run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb, name}).out.trimmed();
}

// The paths a package holds ("./usr/bin/…"), directories included.
QStringList TestPackage::filesOf(const QString &deb)
{
    const Run listing = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), deb});
    QStringList paths;
    for (const QString &line : listing.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        paths << line.section(QLatin1Char(' '), -1);
    return paths;
}

// The package a headless server installs: the CLI, with QtCore, the driver and zlib, and none
// of the desktop's libraries (it suggests the desktop package, whose plugin draws `report`).
void TestPackage::cliPackageNeedsNoDesktopLibrary()
{
    QCOMPARE(fieldOf(m_cliDeb, QStringLiteral("Package")), QStringLiteral("outlier-explorer-cli"));
    QCOMPARE(fieldOf(m_cliDeb, QStringLiteral("Version")), QStringLiteral(PROJECT_VERSION));
    const QString depends = fieldOf(m_cliDeb, QStringLiteral("Depends"));
    for (const char *package :
         {"libqt6core6", "libmongoc-1.0-0", "libbson-1.0-0", "zlib1g", "libqt6sql6-sqlite"})
        QVERIFY2(depends.contains(QLatin1String(package)),
                 qPrintable(QStringLiteral("%1 missing from Depends: %2")
                                .arg(QLatin1String(package), depends)));
    for (const QStringList &group : dependencyGroups(depends))
        for (const QString &name : group)
            for (const char *desktop : {"widgets", "gui", "svg", "printsupport", "qcustomplot",
                                        "keychain", "qpa", "dbus"})
                QVERIFY2(!name.contains(QLatin1String(desktop)),
                         qPrintable(QStringLiteral("the CLI package depends on %1").arg(name)));
    QVERIFY(fieldOf(m_cliDeb, QStringLiteral("Suggests"))
                .startsWith(QLatin1String("outlier-explorer ")));
    const QStringList files = filesOf(m_cliDeb);
    QVERIFY(files.contains(QStringLiteral("./usr/bin/outlier-explorer-cli")));
    QVERIFY(!files.contains(QStringLiteral("./usr/bin/outlier-explorer")));
    QVERIFY(!filesOf(m_deb).contains(QStringLiteral("./usr/bin/outlier-explorer-cli")));
}

void TestPackage::controlFieldsNameTheRuntimeDependencies()
{
    QCOMPARE(field(QStringLiteral("Package")), QStringLiteral("outlier-explorer"));
    QCOMPARE(field(QStringLiteral("Version")), QStringLiteral(PROJECT_VERSION));
    const QString depends = field(QStringLiteral("Depends"));
    // dpkg-shlibdeps found the linked libraries; the platform plugins are named by hand.
    for (const char *package :
         {"libqt6widgets6", "libqt6svg6", "libqcustomplot2.1-qt6", "libmongoc-1.0-0",
          "libbson-1.0-0", "libqt6keychain1", "zlib1g", "qt6-qpa-plugins", "libqt6sql6-sqlite"})
        QVERIFY2(depends.contains(QRegularExpression(
                     QStringLiteral("(^|, )%1( |,|$)")
                         .arg(QRegularExpression::escape(QLatin1String(package))))),
                 qPrintable(QStringLiteral("%1 missing from Depends: %2")
                                .arg(QLatin1String(package), depends)));
    // Every dependency is one this machine has, so `apt install ./*.deb` needs nothing new.
    for (const QStringList &group : dependencyGroups(depends)) {
        bool any = false;
        for (const QString &name : group)
            any = any || installed(name);
        QVERIFY2(any, qPrintable(QStringLiteral("no package of '%1' is installed")
                                     .arg(group.join(QStringLiteral(" | ")))));
    }
}

void TestPackage::packageHoldsEveryInstalledFile()
{
    const QString id = QStringLiteral(OE_APP_ID);
    const QStringList expected = {
        QStringLiteral("usr/bin/outlier-explorer"),
        QStringLiteral("usr/bin/outlier-explorer-cli"),
        QStringLiteral("usr/lib/outlier-explorer/plugins/liboe-report.so"),
        QStringLiteral("usr/share/applications/%1.desktop").arg(id),
        QStringLiteral("usr/share/metainfo/%1.metainfo.xml").arg(id),
        QStringLiteral("usr/share/mime/packages/%1.xml").arg(id),
        QStringLiteral("usr/share/icons/hicolor/scalable/apps/%1.svg").arg(id),
        QStringLiteral("usr/share/man/man1/outlier-explorer.1.gz"),
        QStringLiteral("usr/share/man/man1/outlier-explorer-cli.1.gz"),
        QStringLiteral("usr/share/bash-completion/completions/outlier-explorer-cli"),
        QStringLiteral("usr/share/doc/outlier-explorer/copyright"),
        QStringLiteral("usr/share/doc/outlier-explorer/changelog.gz"),
        QStringLiteral("usr/share/doc/outlier-explorer-cli/copyright"),
        QStringLiteral("usr/share/doc/outlier-explorer-cli/changelog.gz"),
    };
    for (const QString &path : expected)
        QVERIFY2(QFile::exists(root(path)), qPrintable(path + QStringLiteral(" is missing")));
    // Nothing outside /usr, and no headers or libraries but the CLI's report plugin: core and
    // ui are linked statically.
    const QStringList paths = filesOf(m_deb) + filesOf(m_cliDeb);
    QVERIFY(!paths.isEmpty());
    for (const QString &path : paths) {
        QVERIFY2(path.startsWith(QLatin1String("./usr/")), qPrintable(path));
        QVERIFY2(!path.endsWith(QLatin1String(".h")) && !path.endsWith(QLatin1String(".a")) &&
                     (!path.contains(QLatin1String(".so")) ||
                      path == QLatin1String("./usr/lib/outlier-explorer/plugins/liboe-report.so")),
                 qPrintable(path));
    }
    // The binaries are stripped: no debug sections.
    const Run pluginSections =
        run(QStringLiteral("readelf"),
            {QStringLiteral("-S"),
             root(QStringLiteral("usr/lib/outlier-explorer/plugins/liboe-report.so"))});
    QVERIFY2(pluginSections.exitCode == 0, qPrintable(describe(pluginSections)));
    QVERIFY(!pluginSections.out.contains(QLatin1String(".debug_info")));
    const Run sections =
        run(QStringLiteral("readelf"),
            {QStringLiteral("-S"), root(QStringLiteral("usr/bin/outlier-explorer"))});
    QVERIFY2(sections.exitCode == 0, qPrintable(describe(sections)));
    QVERIFY(!sections.out.contains(QLatin1String(".debug_info")));
}

void TestPackage::iconsAreRenderedFromTheSvg()
{
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256, 512}) {
        const QString path = root(QStringLiteral("usr/share/icons/hicolor/%1x%1/apps/%2.png")
                                      .arg(size)
                                      .arg(QLatin1String(OE_APP_ID)));
        const QImage image(path);
        QVERIFY2(!image.isNull(), qPrintable(path));
        QCOMPARE(image.size(), QSize(size, size));
        // The outlier bar escapes the frame at the top right: orange where the frame is not
        // drawn; the top left corner stays transparent.
        const QColor bar = image.pixelColor(size * 102 / 128, size * 12 / 128);
        QVERIFY2(bar.red() > 200 && bar.green() > 100 && bar.blue() < 120 && bar.alpha() == 255,
                 qPrintable(QStringLiteral("%1 px: bar pixel %2").arg(size).arg(bar.name())));
        QCOMPARE(image.pixelColor(1, 1).alpha(), 0);
    }
}

void TestPackage::installedCliRunsAndAgreesWithTheBuildTree()
{
    const QString cli = root(QStringLiteral("usr/bin/outlier-explorer-cli"));
    const Run version = run(cli, {QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out, QStringLiteral("outlier-explorer-cli " PROJECT_VERSION "\n"));

    const QString demo = m_scratch.filePath(QStringLiteral("demo"));
    const Run data = run(cli, {QStringLiteral("demo-data"), QStringLiteral("--dataset"),
                               QStringLiteral("book_sales"), QStringLiteral("--out"), demo});
    QVERIFY2(data.exitCode == 0, qPrintable(describe(data)));
    const QString dump = demo + QStringLiteral("/book_sales.bson");
    QStringList reports;
    for (const QString &binary : {cli, QStringLiteral(OE_BUILD_DIR "/bin/outlier-explorer-cli")}) {
        const QString out = m_scratch.filePath(QStringLiteral("analysis%1").arg(reports.size()));
        const Run analyse = run(binary, {QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                                         QStringLiteral("--out"), out, QStringLiteral("--quiet")});
        QVERIFY2(analyse.exitCode == 0, qPrintable(describe(analyse)));
        reports << out;
    }
    const QStringList files = QDir(reports[0]).entryList({QStringLiteral("*.csv")});
    QVERIFY2(files.contains(QStringLiteral("summary.csv")), qPrintable(files.join(u' ')));
    QCOMPARE(QDir(reports[1]).entryList({QStringLiteral("*.csv")}), files);
    for (const QString &name : files) {
        QFile installedCsv(reports[0] + u'/' + name), builtCsv(reports[1] + u'/' + name);
        QVERIFY(installedCsv.open(QIODevice::ReadOnly) && builtCsv.open(QIODevice::ReadOnly));
        QCOMPARE(withoutTimings(installedCsv.readAll()), withoutTimings(builtCsv.readAll()));
    }
    // The installed CLI finds its installed report plugin (../lib/outlier-explorer/plugins/).
    const QString html = m_scratch.filePath(QStringLiteral("report.html"));
    const Run report = run(cli, {QStringLiteral("report"), QStringLiteral("--dump"), dump,
                                 QStringLiteral("--out"), html, QStringLiteral("--quiet")});
    QVERIFY2(report.exitCode == 0, qPrintable(describe(report)));
    QFile page(html);
    QVERIFY(page.open(QIODevice::ReadOnly) && page.readAll().contains("<svg"));
}

void TestPackage::installedGuiRunsOnTheDemoData()
{
    const QString gui = root(QStringLiteral("usr/bin/outlier-explorer"));
    const Run version = run(gui, {QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out.trimmed(), QStringLiteral("outlier-explorer " PROJECT_VERSION));
    const QString shot = m_scratch.filePath(QStringLiteral("demo.png"));
    const Run demo = run(gui, {QStringLiteral("--demo"), QStringLiteral("--dataset"),
                               QStringLiteral("book_sales"), QStringLiteral("--screenshot"), shot});
    QVERIFY2(demo.exitCode == 0, qPrintable(describe(demo)));
    const QImage image(shot);
    QCOMPARE(image.size(), QSize(1400, 900));
    QVERIFY(image.pixelColor(10, 10) != image.pixelColor(700, 450) ||
            image.pixelColor(700, 450) != image.pixelColor(1390, 890));
}

void TestPackage::validatorsFindNoErrors()
{
    const QString id = QStringLiteral(OE_APP_ID);
    const Run desktop = run(QStringLiteral("desktop-file-validate"),
                            {root(QStringLiteral("usr/share/applications/%1.desktop").arg(id))});
    QVERIFY2(desktop.exitCode == 0 && desktop.out.isEmpty(), qPrintable(describe(desktop)));

    const Run appstream = run(QStringLiteral("appstreamcli"),
                              {QStringLiteral("validate"), QStringLiteral("--no-net"),
                               root(QStringLiteral("usr/share/metainfo/%1.metainfo.xml").arg(id))});
    QVERIFY2(appstream.exitCode == 0, qPrintable(describe(appstream)));
    QVERIFY2(!appstream.out.contains(QRegularExpression(QStringLiteral("^[EW]: "),
                                                        QRegularExpression::MultilineOption)),
             qPrintable(describe(appstream)));

    const Run lintian = run(QStringLiteral("lintian"), {QStringLiteral("--fail-on"),
                                                        QStringLiteral("error"), m_cliDeb, m_deb});
    qInfo("lintian:\n%s", qPrintable(lintian.out));
    QVERIFY2(lintian.exitCode == 0, qPrintable(describe(lintian)));
    QVERIFY2(!lintian.out.contains(
                 QRegularExpression(QStringLiteral("^E: "), QRegularExpression::MultilineOption)),
             qPrintable(lintian.out));
}

void TestPackage::appStreamReleaseIsTheProjectVersion()
{
    QFile file(root(QStringLiteral("usr/share/metainfo/" OE_APP_ID ".metainfo.xml")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QStringList releases, screenshots;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("release"))
            releases << xml.attributes().value(QLatin1String("version")).toString();
        else if (xml.name() == QLatin1String("image"))
            screenshots << xml.readElementText();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(releases.value(0), QStringLiteral(PROJECT_VERSION));
    // The screenshots are the README's: each names a file the repository holds.
    QVERIFY(screenshots.size() >= 4);
    for (const QString &url : screenshots)
        QVERIFY2(QFile::exists(QStringLiteral(OE_SOURCE_DIR "/resources/screenshots/") +
                               url.section(QLatin1Char('/'), -1)),
                 qPrintable(url));
}

void TestPackage::manPagesCoverEveryCommandAndOption()
{
    const QString cli = root(QStringLiteral("usr/bin/outlier-explorer-cli"));
    QString cliPage;
    for (const QString &name :
         {QStringLiteral("outlier-explorer"), QStringLiteral("outlier-explorer-cli")}) {
        // man's own warnings (groff's, as lintian checks them) for a page that renders badly.
        const Run man = run(QStringLiteral("man"),
                            {QStringLiteral("--warnings"), QStringLiteral("-E"),
                             QStringLiteral("UTF-8"), QStringLiteral("-l"),
                             root(QStringLiteral("usr/share/man/man1/%1.1.gz").arg(name))});
        QVERIFY2(man.exitCode == 0 && man.err.isEmpty(), qPrintable(describe(man)));
        QVERIFY(man.out.contains(QStringLiteral(PROJECT_VERSION)));
        if (name.endsWith(QLatin1String("-cli")))
            cliPage = man.out;
        else
            QVERIFY(man.out.contains(QLatin1String("--demo")));
    }
    const QStringList commands = cliCommands(cli);
    QVERIFY2(commands.size() >= 10, qPrintable(commands.join(u' ')));
    QVERIFY(cliPage.contains(QLatin1String("EXIT STATUS")));
    for (const QString &command : commands) {
        QVERIFY2(cliPage.contains(QStringLiteral("outlier-explorer-cli %1 [options]").arg(command)),
                 qPrintable(command));
        const QStringList options =
            fixtures::longOptionsOf(run(cli, {command, QStringLiteral("--help")}).out);
        QVERIFY(options.contains(QStringLiteral("--help")));
        for (const QString &option : options)
            if (option != QLatin1String("--help-all"))
                QVERIFY2(cliPage.contains(option),
                         qPrintable(QStringLiteral("%1 %2").arg(command, option)));
    }
}

QStringList TestPackage::complete(const QStringList &words) const
{
    const QString script =
        QStringLiteral("source /usr/share/bash-completion/bash_completion\n"
                       "source \"$1\"; shift\n"
                       "COMP_WORDS=(\"$@\"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                       "COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}\n"
                       "_outlier_explorer_cli\n"
                       "printf '%s\\n' \"${COMPREPLY[@]}\"\n");
    const Run bash =
        run(QStringLiteral("bash"),
            QStringList{
                QStringLiteral("-c"), script, QStringLiteral("complete"),
                root(QStringLiteral("usr/share/bash-completion/completions/outlier-explorer-cli")),
                QStringLiteral("outlier-explorer-cli")} +
                words,
            m_scratch.path());
    if (bash.exitCode != 0 || !bash.err.isEmpty())
        qWarning("%s", qPrintable(describe(bash)));
    return bash.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

void TestPackage::bashCompletionOffersCommandsOptionsAndValues()
{
    QVERIFY2(QFile::exists(QStringLiteral("/usr/share/bash-completion/bash_completion")),
             "bash-completion is not installed (packaging/setup-debian.sh installs it)");
    QCOMPARE(complete({QStringLiteral("sp")}), QStringList{QStringLiteral("split")});
    QCOMPARE(complete({QStringLiteral("r")}),
             (QStringList{QStringLiteral("rollback"), QStringLiteral("rewrite"),
                          QStringLiteral("report")}));
    QCOMPARE(complete({QStringLiteral("rewrite"), QStringLiteral("--conv")}),
             QStringList{QStringLiteral("--convert-to")});
    QCOMPARE(complete({QStringLiteral("split"), QStringLiteral("--ke")}),
             QStringList{QStringLiteral("--keep")});
    QCOMPARE(complete({QStringLiteral("analyze"), QStringLiteral("--method"), QString()}),
             (QStringList{QStringLiteral("absolute"), QStringLiteral("percentile"),
                          QStringLiteral("iqr"), QStringLiteral("mad")}));
    QCOMPARE(complete({QStringLiteral("codegen"), QStringLiteral("--lang"), QStringLiteral("p")}),
             QStringList{QStringLiteral("python")});
    QCOMPARE(complete({QStringLiteral("report"), QStringLiteral("--page-size"), QString()}),
             (QStringList{QStringLiteral("a4"), QStringLiteral("letter")}));
    // --dump offers .bson files (the demo data written above) and folders, not other files.
    const QStringList dumps =
        complete({QStringLiteral("analyze"), QStringLiteral("--dump"), QStringLiteral("demo/")});
    QCOMPARE(dumps, QStringList{QStringLiteral("demo/book_sales.bson")});
}

void TestPackage::sourceTarballHoldsTheSourcesOnly()
{
    const QString dist = m_scratch.filePath(QStringLiteral("source"));
    const Run cpack =
        run(QStringLiteral(OE_CPACK),
            {QStringLiteral("--config"), QStringLiteral(OE_BUILD_DIR "/CPackSourceConfig.cmake"),
             QStringLiteral("-B"), dist});
    QVERIFY2(cpack.exitCode == 0, qPrintable(describe(cpack)));
    const QString tarball = dist + QStringLiteral("/outlier-explorer-" PROJECT_VERSION ".tar.gz");
    const Run listing = run(QStringLiteral("tar"), {QStringLiteral("tzf"), tarball});
    QVERIFY2(listing.exitCode == 0, qPrintable(describe(listing)));
    const QStringList entries = listing.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QString top = QStringLiteral("outlier-explorer-" PROJECT_VERSION "/");
    for (const char *path : {"CMakeLists.txt", "LICENSE", "README.md", "core/CMakeLists.txt",
                             "packaging/build-deb.sh", "resources/icons/" OE_APP_ID ".svg"})
        QVERIFY2(entries.contains(top + QLatin1String(path)), path);
    for (const QString &entry : entries) {
        QVERIFY2(entry.startsWith(top), qPrintable(entry));
        QVERIFY2(!entry.contains(QRegularExpression(QStringLiteral("/(build[^/]*|\\.git)/"))),
                 qPrintable(entry));
    }
}

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
