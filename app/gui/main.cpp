// outlier-explorer: the desktop explorer. Entry point only; everything else is in ui/ and core/.
#include "demo/DemoLauncher.h"
#include "demo/ScreenshotDirector.h"
#include "explorer/AppIcon.h"
#include "explorer/MainWindow.h"
#include "mongo/ConnectionUri.h"
#include "pages/CollectionView.h"
#include "wizard/MigrationWizard.h"

#include <QApplication>
#include <QCommandLineParser>

#include <csignal>
#include <cstdio>

namespace {

struct GuiOptions
{
    QCommandLineOption demo{QStringLiteral("demo"),
                            QApplication::translate("main", "Open the built-in demo data (no "
                                                            "server needed) and analyse it.")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QApplication::translate("main",
                                "After the analysis, save the window to FILE.png and exit."),
        QStringLiteral("FILE.png")};
    QCommandLineOption tab{
        QStringLiteral("tab"),
        QApplication::translate(
            "main", "Tab to show after the analysis (and for --screenshot): overview, sizes, "
                    "arrays, shape, outliers, split, "
                    "documents or indexes."),
        QStringLiteral("NAME"), QStringLiteral("overview")};
    QCommandLineOption wizard{
        QStringLiteral("wizard"),
        QApplication::translate("main", "With --screenshot: open the migration wizard and save "
                                        "this page instead (source, analysis, threshold, layout, "
                                        "preview, safety, apply, verify, guard or finish)."),
        QStringLiteral("PAGE")};
    QCommandLineOption dataset{
        QStringLiteral("dataset"),
        QApplication::translate("main", "Demo dataset to analyse with --demo (default "
                                        "activity_feeds)."),
        QStringLiteral("NAME"), QStringLiteral("activity_feeds")};
    QCommandLineOption fresh{
        QStringLiteral("fresh"),
        QApplication::translate("main", "Do not reopen the connections, dumps and options of "
                                        "the last session.")};
    QCommandLineOption uri{QStringLiteral("uri"),
                           QApplication::translate("main", "Connect to this cluster at start."),
                           QStringLiteral("URI")};
};

// A one-line message and exit code 2 for options that do not go together; 0 when they do.
int checkOptions(const QCommandLineParser &parser, const GuiOptions &o)
{
    if (!oe::CollectionView::tabNames().contains(parser.value(o.tab))) {
        std::fprintf(stderr, "outlier-explorer: --tab: unknown tab '%s' (use %s)\n",
                     qPrintable(parser.value(o.tab)),
                     qPrintable(oe::CollectionView::tabNames().join(QStringLiteral(", "))));
        return 2;
    }
    if (parser.isSet(o.wizard) && oe::MigrationWizard::pageIdOf(parser.value(o.wizard)) < 0) {
        std::fprintf(stderr, "outlier-explorer: --wizard: unknown page '%s' (use %s)\n",
                     qPrintable(parser.value(o.wizard)),
                     qPrintable(oe::MigrationWizard::pageNames().join(QStringLiteral(", "))));
        return 2;
    }
    if (parser.isSet(o.wizard) && !parser.isSet(o.screenshot)) {
        std::fprintf(stderr, "outlier-explorer: --wizard goes with --screenshot\n");
        return 2;
    }
    if (parser.isSet(o.screenshot) && !parser.isSet(o.demo) &&
        parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "outlier-explorer: --screenshot needs --demo or a dump file\n");
        return 2;
    }
    return 0;
}

// --help and --version print and exit: they must work over ssh without a display too.
void headlessForHelpAndVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "--version" ||
            arg == "-v") {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
}

bool connectAtStart(oe::MainWindow &window, const QString &uri)
{
    oe::ConnectionUri parts;
    QString error;
    if (!oe::ConnectionUri::parse(uri, &parts, &error)) {
        std::fprintf(stderr, "outlier-explorer: --uri: %s\n", qPrintable(error));
        return false;
    }
    window.connectUri(uri); // under its saved name, with its TLS files and keychain password
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    std::signal(SIGXFSZ, SIG_IGN); // a file over `ulimit -f`: a reported write error, not a crash
    headlessForHelpAndVersion(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OutlierExplorer"));
    QApplication::setApplicationName(QStringLiteral("outlier-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("Outlier Explorer"));
    QApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));
    QApplication::setDesktopFileName(oe::AppIcon::id());
    QApplication::setWindowIcon(oe::AppIcon::icon());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Find and split MongoDB documents that grow without bound."));
    parser.addHelpOption();
    parser.addVersionOption();
    const GuiOptions o;
    parser.addOptions({o.demo, o.screenshot, o.tab, o.wizard, o.dataset, o.uri, o.fresh});
    parser.addPositionalArgument(QStringLiteral("dumps"),
                                 QApplication::translate("main", "mongodump .bson files to open."),
                                 QStringLiteral("[FILE.bson...]"));
    parser.process(app);
    if (const int rc = checkOptions(parser, o); rc != 0)
        return rc;

    const bool screenshot = parser.isSet(o.screenshot);
    oe::MainWindow window;
    oe::DemoLauncher demo(&window); // File → Open demo data, --demo
    if (screenshot || !window.restoreGeometry(QByteArray()))
        window.resize(1400, 900);
    std::unique_ptr<oe::ScreenshotDirector> director;
    if (screenshot)
        director = std::make_unique<oe::ScreenshotDirector>(
            &window, parser.value(o.screenshot), parser.value(o.tab), parser.value(o.wizard));
    window.show();
    if (!screenshot && parser.isSet(o.tab)) // the first result lands on the tab asked for
        QObject::connect(
            &window, &oe::MainWindow::analysisFinished, &window,
            [&window, tab = parser.value(o.tab)] { window.collectionView()->showTab(tab); },
            Qt::SingleShotConnection);
    // The last session comes back unless this run is a demo, a screenshot or asked not to.
    if (!screenshot && !parser.isSet(o.demo) && !parser.isSet(o.fresh))
        window.restoreSession();
    if (parser.isSet(o.uri) && !connectAtStart(window, parser.value(o.uri)))
        return 2;
    const QStringList dumps = parser.positionalArguments();
    for (const QString &path : dumps)
        window.openDump(path);
    if (parser.isSet(o.demo))
        window.runDemo(parser.value(o.dataset));
    else if (!dumps.isEmpty() && screenshot)
        window.runAnalysis();
    return QApplication::exec();
}
