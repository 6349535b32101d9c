#pragma once

#include <QList>
#include <QObject>

class QAction;
class QWidget;

namespace oe {

// Lets a window's own shortcuts win over a text field's editing keys: on X11 a line edit takes
// Ctrl+E (end of line) and Ctrl+M, which would swallow Export and Migrate while the user types
// a filter. Filters the application's ShortcutOverride events while `window` is active; an
// enabled action among `actions` with the pressed sequence is left to the shortcut map.
class ShortcutPriority : public QObject
{
    Q_OBJECT
public:
    ShortcutPriority(QWidget *window, QList<QAction *> actions);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_window;
    QList<QAction *> m_actions;
};

} // namespace oe
