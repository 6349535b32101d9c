#include "explorer/ErrorNotice.h"

#include <QCoreApplication>

namespace oe {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ErrorNotice", text);
}

QString adviceFor(SourceError::Kind kind)
{
    switch (kind) {
    case SourceError::Kind::Connection:
        return tr("The server did not answer or refused the request: check that it runs and is "
                  "reachable, and the user name and password, then try again. The window stays "
                  "usable.");
    case SourceError::Kind::InvalidData:
        return tr("The data is damaged at the place named; what was read before it is shown. "
                  "The window stays usable.");
    case SourceError::Kind::Io:
        return tr("Check the file or folder and its permissions, then try again. The window "
                  "stays usable.");
    case SourceError::Kind::Usage:
    case SourceError::Kind::None:
        break;
    }
    return tr("Fix the input named and try again. The window stays usable.");
}

// The headline's one line: `what`, then the cause, unless `what` already ends with it.
QString oneLine(const QString &what, const QString &cause)
{
    QString line = what;
    const QString trimmed = cause.trimmed();
    if (!trimmed.isEmpty() && !what.contains(trimmed)) {
        if (line.endsWith(QLatin1Char('.')))
            line.chop(1);
        line += QStringLiteral(": ") + trimmed;
    }
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return line;
}

} // namespace

ErrorNotice ErrorNotice::of(const QString &title, const QString &what, const SourceError &cause)
{
    ErrorNotice notice;
    notice.title = title;
    notice.headline = oneLine(what, cause.toString());
    notice.advice = adviceFor(cause.kind);
    if (cause.serverCode != 0)
        notice.details = tr("Server error code %1.").arg(cause.serverCode);
    return notice;
}

ErrorNotice ErrorNotice::of(const QString &title, const QString &what, const QString &cause,
                            SourceError::Kind kind)
{
    ErrorNotice notice;
    notice.title = title;
    const QString first = cause.section(QLatin1Char('\n'), 0, 0);
    notice.headline = oneLine(what, first);
    notice.advice = adviceFor(kind);
    if (first != cause.trimmed())
        notice.details = cause;
    return notice;
}

} // namespace oe
