#include "explorer/ShortcutPriority.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QWidget>

namespace oe {

ShortcutPriority::ShortcutPriority(QWidget *window, QList<QAction *> actions)
    : QObject(window), m_window(window), m_actions(std::move(actions))
{
    qApp->installEventFilter(this);
}

bool ShortcutPriority::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride && m_window->isActiveWindow()) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const QKeySequence pressed(key->keyCombination());
        for (const QAction *action : m_actions)
            if (action->isEnabled() && action->shortcut() == pressed)
                return true; // not accepted: the shortcut map triggers the action
    }
    return QObject::eventFilter(watched, event);
}

} // namespace oe
