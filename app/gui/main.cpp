// outlier-explorer: the desktop explorer. Entry point only; everything else is in ui/ and core/.
#include "AnalysisOptionsBar.h"
#include "CollectionView.h"
#include "ConnectionUri.h"
#include "MainWindow.h"
#include "ScreenshotDirector.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OutlierExplorer"));
    QApplication::setApplicationName(QStringLiteral("outlier-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("Outlier Explorer"));
    QApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Find and split MongoDB documents that grow without bound."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QApplication::translate("main",
                                                          "Open the built-in demo data "
                                                          "(no server needed) and analyse it."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("main",
                                "After the analysis, save the window to FILE.png and exit."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption tab(
        QStringLiteral("tab"),
        QApplication::translate("main", "Tab for --screenshot: overview, sizes, arrays, outliers "
                                        "or split."),
        QStringLiteral("NAME"), QStringLiteral("overview"));
    const QCommandLineOption dataset(
        QStringLiteral("dataset"),
        QApplication::translate("main",
                                "Demo dataset to analyse with --demo (default activity_feeds)."),
        QStringLiteral("NAME"), QStringLiteral("activity_feeds"));
    const QCommandLineOption uri(
        QStringLiteral("uri"), QApplication::translate("main", "Connect to this cluster at start."),
        QStringLiteral("URI"));
    parser.addOptions({demo, screenshot, tab, dataset, uri});
    parser.addPositionalArgument(QStringLiteral("dumps"),
                                 QApplication::translate("main", "mongodump .bson files to open."),
                                 QStringLiteral("[FILE.bson...]"));
    parser.process(app);

    if (!oe::CollectionView::tabNames().contains(parser.value(tab))) {
        std::fprintf(stderr, "outlier-explorer: --tab: unknown tab '%s' (use %s)\n",
                     qPrintable(parser.value(tab)),
                     qPrintable(oe::CollectionView::tabNames().join(QStringLiteral(", "))));
        return 2;
    }
    if (parser.isSet(screenshot) && !parser.isSet(demo) && parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "outlier-explorer: --screenshot needs --demo or a dump file\n");
        return 2;
    }

    oe::MainWindow window;
    if (!window.restoreGeometry(QByteArray()) && !parser.isSet(screenshot))
        window.resize(1400, 900);
    if (parser.isSet(screenshot))
        window.resize(1400, 900);
    std::unique_ptr<oe::ScreenshotDirector> director;
    if (parser.isSet(screenshot))
        director = std::make_unique<oe::ScreenshotDirector>(&window, parser.value(screenshot),
                                                            parser.value(tab));
    window.show();

    if (parser.isSet(uri)) {
        oe::ConnectionUri parts;
        QString error;
        if (!oe::ConnectionUri::parse(parser.value(uri), &parts, &error)) {
            std::fprintf(stderr, "outlier-explorer: --uri: %s\n", qPrintable(error));
            return 2;
        }
        oe::ConnectionSettings settings;
        settings.uri = parser.value(uri);
        window.addConnection(parts.hosts, settings);
    }
    const QStringList dumps = parser.positionalArguments();
    for (const QString &path : dumps)
        window.openDump(path);
    if (parser.isSet(demo)) {
        // The demo data is small: analyse it whole.
        window.optionsBar()->modeBox()->setCurrentIndex(
            window.optionsBar()->modeBox()->findData(int(oe::AnalysisOptions::Mode::Full)));
        QObject::connect(&window, &oe::MainWindow::demoReady, &window,
                         &oe::MainWindow::runAnalysis);
        window.openDemo(parser.value(dataset));
    } else if (!dumps.isEmpty() && parser.isSet(screenshot)) {
        window.runAnalysis();
    }
    return QApplication::exec();
}
