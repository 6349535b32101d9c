#pragma once

#include <QObject>

class QAction;
class QMainWindow;

namespace oe {

class TreeRefresher;

// The main window's menu bar (File, Analysis, View, Help) and its toolbar, with their shortcuts.
// It knows no window of its own kind: the window connects each action (MainWindow::
// createActions) and enables them as the selection allows; Open dump… asks for the file and
// says which (openDumpRequested).
class MainMenus : public QObject
{
    Q_OBJECT
public:
    struct Actions
    {
        QAction *run = nullptr;
        QAction *cancel = nullptr;
        QAction *exportCsv = nullptr;
        QAction *exportReport = nullptr;
        QAction *migrate = nullptr;
        QAction *migrations = nullptr;
        QAction *whatIf = nullptr;
        QAction *trends = nullptr;
        QAction *watch = nullptr;
        QAction *connect = nullptr;
        QAction *demo = nullptr;
        QAction *userGuide = nullptr;
    };

    MainMenus(QMainWindow *window, TreeRefresher *refresher);
    const Actions &actions() const { return m_actions; }

signals:
    void openDumpRequested(const QString &path);

private:
    void addViewMenu(QMainWindow *window, TreeRefresher *refresher);

    Actions m_actions;
};

} // namespace oe
