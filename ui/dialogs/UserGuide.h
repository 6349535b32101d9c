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
// table can never disagree with the menus); beside it the whole reference (every view, command
// and option: resources/help/reference.md, the README's links' target), rendered from its
// Markdown, its pictures left out.
class UserGuide : public QDialog
{
    Q_OBJECT
public:
    // `shortcuts`: (what, key sequence in the platform's words).
    explicit UserGuide(const QList<QPair<QString, QString>> &shortcuts, QWidget *parent = nullptr);
    QString html() const;
    // The reference as shown (plain text).
    QString referenceText() const;
    static QString guideHtml(const QList<QPair<QString, QString>> &shortcuts);
    // The reference's Markdown without its images (the dialog has none of the screenshots).
    static QString referenceMarkdown();
    // Every action with a shortcut in the menus of `bar`: (text without '&', keys).
    static QList<QPair<QString, QString>> shortcutsOf(const QMenuBar *bar);

private:
    QTextBrowser *m_text;
    QTextBrowser *m_reference;
};

} // namespace oe
