#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace oe {

class DemoPreparer;
class MainWindow;

// File → Open demo data and `outlier-explorer --demo`: the built-in datasets written once
// (DemoPreparer, on a worker), opened as dumps in `window`, `select` shown; run() also analyses
// it whole and queues the others behind it. It answers the window's demoRequested and reports
// to it (the window, a floor below, never names the demo): the entry point makes one per
// window.
class DemoLauncher : public QObject
{
    Q_OBJECT
public:
    explicit DemoLauncher(MainWindow *window);

    void open(const QString &select);
    void run(const QString &select);

signals:
    void status(const QString &text);
    void ready(); // the datasets are open, `select` selected
    void failed(const QString &error);

private:
    void show(const QStringList &files, const QString &directory);

    MainWindow *m_window;
    DemoPreparer *m_preparer;
    QString m_select; // the dataset shown once the data is ready
};

} // namespace oe
