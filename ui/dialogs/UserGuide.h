#pragma once

#include <QDialog>
#include <QList>
#include <QPair>
#include <QString>

class QMenuBar;
class QTextBrowser;

namespace oe {

// Help → User guide (F1): what each tab means and how a migration goes, from the guide shipped
// in the resources, and the keyboard shortcuts as the window's own actions have them (so the
// table can never disagree with the menus).
class UserGuide : public QDialog
{
    Q_OBJECT
public:
    // `shortcuts`: (what, key sequence in the platform's words).
    explicit UserGuide(const QList<QPair<QString, QString>> &shortcuts, QWidget *parent = nullptr);
    QString html() const;
    static QString guideHtml(const QList<QPair<QString, QString>> &shortcuts);
    // Every action with a shortcut in the menus of `bar`: (text without '&', keys).
    static QList<QPair<QString, QString>> shortcutsOf(const QMenuBar *bar);

private:
    QTextBrowser *m_text;
};

} // namespace oe
