// How long the explorer's event loop ever waits while a large scan runs and its result is
// shown: a 2 ms precise timer records the gap between its ticks; the longest gap beyond the
// interval is the longest stall a user could feel. Meanwhile a simulated user switches tabs and
// hovers the chart every 50 ms. Prints its figures; a report, not a test.
//
// Usage: bench_gui_stall DUMP.bson   (QT_QPA_PLATFORM=offscreen for headless machines)
#include "AnalysisOptionsBar.h"
#include "ChartPanel.h"
#include "CollectionView.h"
#include "MainWindow.h"
#include "SizesPage.h"
#include "SplitPreviewPage.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Phase
{
    const char *name;
    std::vector<double> gaps; // ms between ticks
    void print(double intervalMs) const
    {
        if (gaps.empty()) {
            std::printf("  %-34s no ticks\n", name);
            return;
        }
        std::vector<double> sorted = gaps;
        std::sort(sorted.begin(), sorted.end());
        const double worst = sorted.back() - intervalMs;
        const double p99 = sorted[std::size_t(double(sorted.size() - 1) * 0.99)] - intervalMs;
        const auto over = std::count_if(sorted.begin(), sorted.end(),
                                        [&](double g) { return g - intervalMs > 50.0; });
        std::printf("  %-34s ticks %6zu  longest stall %7.1f ms  p99 %5.1f ms  stalls >50 ms: "
                    "%ld\n",
                    name, sorted.size(), std::max(0.0, worst), std::max(0.0, p99), long(over));
    }
};

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OutlierExplorerBench"));
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_gui_stall DUMP.bson\n");
        return 2;
    }
    const QString dump = QString::fromLocal8Bit(argv[1]);

    oe::MainWindow window;
    window.setInteractive(false);
    window.resize(1400, 900);
    window.show();
    window.openDump(dump);
    window.optionsBar()->modeBox()->setCurrentIndex(
        window.optionsBar()->modeBox()->findData(int(oe::AnalysisOptions::Mode::Full)));

    constexpr double kIntervalMs = 2.0;
    Phase scan{"during the scan", {}};
    Phase result{"showing the result (2 s after)", {}};
    Phase *phase = &scan;
    QElapsedTimer clock;
    QElapsedTimer wall;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(int(kIntervalMs));
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double gap = double(clock.nsecsElapsed()) / 1e6;
        if (phase)
            phase->gaps.push_back(gap);
        if (gap > 50.0 && qEnvironmentVariableIsSet("OE_BENCH_VERBOSE"))
            std::printf("  stall of %.1f ms at %.2f s, tab %d\n", gap, double(wall.elapsed()) / 1000.0,
                        window.collectionView()->tabs()->currentIndex());
        clock.restart();
    });

    // The simulated user.
    QTimer user;
    user.setInterval(50);
    int step = 0;
    QObject::connect(&user, &QTimer::timeout, [&] {
        oe::CollectionView *view = window.collectionView();
        view->tabs()->setCurrentIndex((step / 4) % view->tabs()->count());
        oe::HistogramChart *chart = view->sizes()->panel()->chart();
        chart->binTextAt(chart->axisRect()->center() + QPoint((step % 9 - 4) * 40, 0));
        ++step;
    });

    std::uint64_t documents = 0;
    double seconds = 0;
    QObject::connect(&window, &oe::MainWindow::analysisFinished, [&](const oe::AnalysisResult &r) {
        documents = r.profile.documents;
        seconds = r.profile.seconds;
        phase = &result;
        QTimer::singleShot(2000, &app, [&] {
            phase = nullptr;
            app.quit();
        });
    });
    QTimer::singleShot(0, [&] {
        wall.start();
        clock.start();
        ticker.start();
        user.start();
        window.runAnalysis();
    });
    app.exec();

    std::printf("GUI event-loop stall benchmark: %s\n", qPrintable(dump));
    std::printf("  scanned %llu documents in %.2f s (%.0f docs/s), wall %.2f s, platform %s\n",
                static_cast<unsigned long long>(documents), seconds,
                seconds > 0 ? double(documents) / seconds : 0.0, double(wall.elapsed()) / 1000.0,
                qPrintable(QGuiApplication::platformName()));
    scan.print(kIntervalMs);
    result.print(kIntervalMs);
    double worst = 0;
    for (const Phase *p : {&scan, &result})
        for (double g : p->gaps)
            worst = std::max(worst, g - kIntervalMs);
    std::printf("  longest event-loop stall: %.1f ms (target < 50 ms): %s\n", worst,
                worst < 50.0 ? "met" : "MISSED");
    return 0;
}
