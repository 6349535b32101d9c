#include "dialogs/UserGuide.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTabWidget>
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

QString UserGuide::referenceMarkdown()
{
    QFile file(QStringLiteral(":/help/reference.md"));
    if (!file.open(QIODevice::ReadOnly))
        return tr("The reference is missing.");
    QString markdown = QString::fromUtf8(file.readAll());
    static const QRegularExpression image(QStringLiteral("!\\[[^\\]]*\\]\\([^)]*\\)"));
    markdown.remove(image);
    return markdown;
}

UserGuide::UserGuide(const QList<QPair<QString, QString>> &shortcuts, QWidget *parent)
    : QDialog(parent), m_text(new QTextBrowser(this)), m_reference(new QTextBrowser(this))
{
    setWindowTitle(tr("Outlier Explorer — user guide"));
    resize(760, 640);
    m_text->setOpenLinks(false);
    m_text->setHtml(guideHtml(shortcuts));
    m_reference->setOpenLinks(false);
    m_reference->setMarkdown(referenceMarkdown());
    auto *tabs = new QTabWidget(this);
    tabs->addTab(m_text, tr("&Guide"));
    tabs->addTab(m_reference, tr("&Reference"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(tabs, 1);
    layout->addWidget(buttons);
}

QString UserGuide::referenceText() const
{
    return m_reference->toPlainText();
}

QString UserGuide::html() const
{
    return m_text->toHtml();
}

} // namespace oe
