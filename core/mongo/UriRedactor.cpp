#include "mongo/UriRedactor.h"

namespace oe {

QString UriRedactor::redact(const QString &uri)
{
    const qsizetype scheme = uri.indexOf(QStringLiteral("://"));
    if (scheme < 0)
        return uri;
    const qsizetype start = scheme + 3;
    // The user info ends at the last '@' before the path or options begin (a password may
    // contain '/' or '?' only percent-encoded, but be safe and search for '@' first).
    qsizetype at = -1;
    for (qsizetype i = start; i < uri.size(); ++i) {
        const QChar c = uri[i];
        if (c == QLatin1Char('@'))
            at = i;
        else if ((c == QLatin1Char('/') || c == QLatin1Char('?')) && at >= 0)
            break;
    }
    if (at < 0)
        return uri;
    const qsizetype colon = uri.indexOf(QLatin1Char(':'), start);
    if (colon < 0 || colon > at)
        return uri; // a user name without a password
    return uri.left(colon + 1) + QStringLiteral("****") + uri.mid(at);
}

QString UriRedactor::redactText(const QString &text)
{
    QString out;
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype found = text.indexOf(QStringLiteral("mongodb"), pos);
        if (found < 0) {
            out += text.mid(pos);
            break;
        }
        out += text.mid(pos, found - pos);
        qsizetype end = found;
        while (end < text.size() && !text[end].isSpace() && text[end] != QLatin1Char('"') &&
               text[end] != QLatin1Char('\''))
            ++end;
        const QString candidate = text.mid(found, end - found);
        out += candidate.contains(QStringLiteral("://")) ? redact(candidate) : candidate;
        pos = end;
    }
    return out;
}

} // namespace oe
