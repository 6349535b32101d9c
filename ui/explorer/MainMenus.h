#pragma once

#include <QObject>

class QAction;

namespace oe {

class MainWindow;

// The main window's menu bar (File, Analysis, View, Help) and its toolbar, with their shortcuts:
// every action calls the window's public interface; the window enables them as the selection
// allows.
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
    };

    explicit MainMenus(MainWindow *window);
    const Actions &actions() const { return m_actions; }

private:
    void addViewMenu(MainWindow *window);

    Actions m_actions;
};

} // namespace oe
