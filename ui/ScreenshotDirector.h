#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace oe {

class MainWindow;

// Drives `outlier-explorer --screenshot FILE.png [--tab NAME]`: once the analysis has
// finished (and, for the split tab, the preview and prediction are shown), renders the
// window into FILE and quits with 0, or with 1 and a one-line reason on stderr.
class ScreenshotDirector : public QObject
{
    Q_OBJECT
public:
    ScreenshotDirector(MainWindow *window, QString file, QString tab, QObject *parent = nullptr);
    static constexpr int kTimeoutMs = 180000;

private:
    void analysisDone();
    void capture();
    void fail(const QString &message);

    MainWindow *m_window;
    QString m_file;
    QString m_tab;
    QTimer m_timeout;
    int m_waiting = 0;
};

} // namespace oe
