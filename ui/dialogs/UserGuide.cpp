#include "dialogs/UserGuide.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace oe {

QString UserGuide::guideHtml(const QList<QPair<QString, QString>> &shortcuts)
{
    QFile file(QStringLiteral(":/help/user-guide.html"));
    QString html = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll())
                                                  : tr("<p>The user guide is missing.</p>");
    QString table = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">");
    for (const auto &[what, keys] : shortcuts)
        table += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>")
                     .arg(what.toHtmlEscaped(), keys.toHtmlEscaped());
    table += QStringLiteral("</table>");
    html.replace(QStringLiteral("<!-- shortcuts -->"), table);
    return html;
}

QList<QPair<QString, QString>> UserGuide::shortcutsOf(const QMenuBar *bar)
{
    QList<QPair<QString, QString>> shortcuts;
    for (QAction *menu : bar->actions())
        for (QAction *action : menu->menu() ? menu->menu()->actions() : QList<QAction *>())
            if (!action->shortcut().isEmpty())
                shortcuts.append({QString(action->text()).remove(QLatin1Char('&')),
                                  action->shortcut().toString(QKeySequence::NativeText)});
    return shortcuts;
}

UserGuide::UserGuide(const QList<QPair<QString, QString>> &shortcuts, QWidget *parent)
    : QDialog(parent), m_text(new QTextBrowser(this))
{
    setWindowTitle(tr("Outlier Explorer — user guide"));
    resize(720, 640);
    m_text->setOpenLinks(false);
    m_text->setHtml(guideHtml(shortcuts));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
}

QString UserGuide::html() const
{
    return m_text->toHtml();
}

} // namespace oe
