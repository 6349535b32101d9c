// How long the explorer's event loop ever waits while a large scan runs and its result is
// shown, and (given a second dump) while the migration wizard plans, applies and verifies an
// offline split of it: a 2 ms precise timer records the gap between its ticks; the longest gap
// beyond the interval is the longest stall a user could feel. Meanwhile a simulated user
// switches tabs and hovers the chart every 50 ms. Prints its figures; a report, not a test.
//
// Usage: bench_gui_stall DUMP.bson [SPLIT.bson]   (QT_QPA_PLATFORM=offscreen when headless)
#include "explorer/MainWindow.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/CollectionView.h"
#include "pages/SizesPage.h"
#include "pages/SplitPreviewPage.h"
#include "widgets/ChartPanel.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardDriver.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
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

// With OE_BENCH_VERBOSE: every event that takes the UI thread over 40 ms, with its CPU time
// (a long wall time with little CPU is a wait: a lock, or a full thread pool).
class TimedApp : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *o, QEvent *e) override
    {
        QElapsedTimer t;
        t.start();
        timespec a{}, b{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        const bool r = QApplication::notify(o, e);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        if (t.elapsed() > 40 && qEnvironmentVariableIsSet("OE_BENCH_VERBOSE"))
            std::printf("  slow event %d to %s (%s): %lld ms wall, %.0f ms cpu\n", int(e->type()),
                        o->metaObject()->className(), qPrintable(o->objectName()), t.elapsed(),
                        double(b.tv_sec - a.tv_sec) * 1e3 + double(b.tv_nsec - a.tv_nsec) / 1e6);
        return r;
    }
};

int main(int argc, char *argv[])
{
    TimedApp app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OutlierExplorerBench"));
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_gui_stall DUMP.bson\n");
        return 2;
    }
    const QString dump = QString::fromLocal8Bit(argv[1]);
    const QString splitDump = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QString();
    QTemporaryDir scratch;

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
    Phase applying{"wizard: plan, apply, verify a split", {}};
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
            std::printf("  stall of %.1f ms at %.2f s, tab %d, wizard page %d\n", gap,
                        double(wall.elapsed()) / 1000.0,
                        window.collectionView()->tabs()->currentIndex(),
                        window.findChild<oe::MigrationWizard *>()
                            ? window.findChild<oe::MigrationWizard *>()->currentId()
                            : -1);
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
    double splitSeconds = 0;
    std::uint64_t splitDocuments = 0;
    QString splitError;
    auto finish = [&] {
        phase = nullptr;
        app.quit();
    };
    // The split phase: the second dump analysed, then the wizard taken to its verify page.
    auto startSplit = [&] {
        window.openDump(splitDump);
        window.selectSource(QFileInfo(splitDump).fileName());
        window.runAnalysis();
    };
    auto openWizard = [&] {
        phase = &applying;
        oe::MigrationWizard *wizard = window.openMigrationWizard();
        if (!wizard) {
            splitError = QStringLiteral("the wizard did not open");
            finish();
            return;
        }
        wizard->setOutDir(scratch.filePath(QStringLiteral("split")));
        QElapsedTimer *timer = new QElapsedTimer;
        timer->start();
        auto *driver = new oe::WizardDriver(wizard, oe::MigrationWizard::FinishPageId, &app);
        QObject::connect(driver, &oe::WizardDriver::failed, [&](const QString &why) {
            splitError = why;
            finish();
        });
        QObject::connect(driver, &oe::WizardDriver::reached, [&, wizard, timer] {
            splitSeconds = double(timer->elapsed()) / 1000.0;
            splitDocuments = wizard->outcome(oe::MigrationOutcome::Step::Apply).plan.affected;
            delete timer;
            finish();
        });
    };
    int finished = 0;
    QObject::connect(&window, &oe::MainWindow::analysisFinished, [&](const oe::AnalysisResult &r) {
        if (++finished == 2) {
            openWizard();
            return;
        }
        documents = r.profile.documents;
        seconds = r.profile.seconds;
        phase = &result;
        QTimer::singleShot(2000, &app, [&] {
            if (splitDump.isEmpty())
                finish();
            else
                startSplit();
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
    if (!splitDump.isEmpty()) {
        if (splitError.isEmpty())
            std::printf("  split of %s: %llu documents split and verified, wizard %.1f s\n",
                        qPrintable(QFileInfo(splitDump).fileName()),
                        static_cast<unsigned long long>(splitDocuments), splitSeconds);
        else
            std::printf("  split of %s: %s\n", qPrintable(splitDump), qPrintable(splitError));
        applying.print(kIntervalMs);
    }
    double worst = 0;
    for (const Phase *p : {&scan, &result, &applying})
        for (double g : p->gaps)
            worst = std::max(worst, g - kIntervalMs);
    std::printf("  longest event-loop stall: %.1f ms (target < 50 ms): %s\n", worst,
                worst < 50.0 ? "met" : "MISSED");
    return 0;
}
