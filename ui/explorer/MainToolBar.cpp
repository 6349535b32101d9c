#include "explorer/MainToolBar.h"

#include <QAction>
#include <QMainWindow>
#include <QToolBar>

namespace oe {

QToolBar *MainToolBar::create(QMainWindow *window, const QList<QAction *> &actions)
{
    QToolBar *bar = window->addToolBar(QMainWindow::tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    for (QAction *action : actions) {
        if (!action) {
            bar->addSeparator();
            continue;
        }
        bar->addAction(action);
        action->setToolTip(
            QStringLiteral("%1 (%2)").arg(action->text().remove(QLatin1Char('&')),
                                          action->shortcut().toString(QKeySequence::NativeText)));
    }
    return bar;
}

} // namespace oe
