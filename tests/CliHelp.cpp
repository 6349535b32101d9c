#include "CliHelp.h"

#include <QRegularExpression>

namespace fixtures {

QStringList commandsOf(const QString &usage)
{
    QStringList commands;
    bool inList = false;
    for (const QString &line : usage.split(QLatin1Char('\n'))) {
        if (line == QLatin1String("commands:")) {
            inList = true;
            continue;
        }
        if (inList && line.trimmed().isEmpty())
            break;
        if (inList)
            commands << line.trimmed().section(QLatin1Char(' '), 0, 0);
    }
    return commands;
}

QStringList longOptionsOf(const QString &help)
{
    QStringList options;
    static const QRegularExpression re(QStringLiteral("^  (?:-\\w, )?(--[\\w-]+)"),
                                       QRegularExpression::MultilineOption);
    for (auto it = re.globalMatch(help); it.hasNext();)
        options << it.next().captured(1);
    return options;
}

} // namespace fixtures
