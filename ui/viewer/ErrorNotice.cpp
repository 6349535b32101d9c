#include "viewer/ErrorNotice.h"

#include <QCoreApplication>

namespace oe {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ErrorNotice", text);
}

QString connectionAdvice(SourceError::ConnectionFault fault)
{
    using Fault = SourceError::ConnectionFault;
    switch (fault) {
    case Fault::Lost:
        return tr("The server went away or refused the connection: check that it is running and "
                  "reachable, then Run again (a connection: right-click it, Refresh). The window "
                  "stays usable.");
    case Fault::Authentication:
        return tr("The server refused the credentials: check the user name, the password and "
                  "the authentication database, then try again. The window stays usable.");
    case Fault::Refused:
        return tr("The server refused the request, for the reason named. The window stays "
                  "usable.");
    case Fault::Unknown:
        break;
    }
    return tr("The server did not answer or refused the request: check that it is running and "
              "reachable, then try again. The window stays usable.");
}

QString adviceFor(SourceError::Kind kind,
                  SourceError::ConnectionFault fault = SourceError::ConnectionFault::Unknown)
{
    switch (kind) {
    case SourceError::Kind::Connection:
        return connectionAdvice(fault);
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
    notice.advice = adviceFor(cause.kind, cause.fault);
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
