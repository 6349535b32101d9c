#pragma once

#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTimer>

namespace oe {

class MainWindow;

// Drives `outlier-explorer --screenshot FILE.png [--tab NAME | --wizard PAGE]`: once the
// analysis has finished (and, for the split tab, the preview and prediction are shown), renders
// the window into FILE, or opens the migration wizard, takes it to PAGE as a user would (an
// offline split into a temporary folder) and renders the wizard; quits with 0, or with 1 and a
// one-line reason on stderr.
class ScreenshotDirector : public QObject
{
    Q_OBJECT
public:
    ScreenshotDirector(MainWindow *window, QString file, QString tab, QString wizardPage = {},
                       QObject *parent = nullptr);
    static constexpr int kTimeoutMs = 180000;

private:
    void analysisDone();
    void openWizard();
    void capture(QWidget *widget);
    void fail(const QString &message);

    MainWindow *m_window;
    QString m_file;
    QString m_tab;
    QString m_wizardPage;
    QTemporaryDir m_scratch; // the wizard's offline split goes here
    QTimer m_timeout;
    int m_waiting = 0;
};

} // namespace oe
