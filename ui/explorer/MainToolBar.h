#pragma once

#include <QList>

class QAction;
class QMainWindow;
class QToolBar;

namespace oe {

// The main window's tool bar: the given actions (nullptr for a separator), each with its
// shortcut in the tooltip.
class MainToolBar
{
public:
    static QToolBar *create(QMainWindow *window, const QList<QAction *> &actions);
};

} // namespace oe
