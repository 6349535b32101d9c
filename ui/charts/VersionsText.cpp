#include "charts/VersionsText.h"

#include "charts/Format.h"

#include <QCoreApplication>
#include <QLocale>

namespace oe {

namespace {

QString tr(const char *text, int n = -1)
{
    return QCoreApplication::translate("VersionsText", text, nullptr, n);
}

QString percentOf(std::uint64_t n, std::uint64_t total)
{
    const double share = total ? double(n) / double(total) : 0.0;
    return Format::percent(share, share < 0.001 ? 2 : 1);
}

} // namespace

QString VersionsText::shares(const SchemaVersions &versions)
{
    QStringList parts;
    for (const SchemaVersions::Share &s : versions.shares)
        parts << tr("%1: %2 (%3)")
                     .arg(s.value, percentOf(s.documents, versions.documents),
                          Format::count(s.documents));
    return parts.join(QStringLiteral(" · "));
}

QString VersionsText::history(const SchemaVersions &versions)
{
    QStringList moves;
    for (const SchemaVersions::Share &s : versions.shares) {
        QStringList steps;
        for (const SchemaVersions::Point &p : versions.history) {
            std::uint64_t n = 0;
            for (const SchemaVersions::Share &ps : p.shares)
                n = ps.value == s.value ? ps.documents : n;
            steps << percentOf(n, p.documents);
        }
        moves << tr("%1: %2").arg(s.value, steps.join(QStringLiteral(" → ")));
    }
    return tr("Over %n analyses since %1: %2.", int(versions.history.size()))
        .arg(QLocale().toString(versions.history.front().at.toLocalTime(), QLocale::ShortFormat),
             moves.join(QStringLiteral("; ")));
}

} // namespace oe
