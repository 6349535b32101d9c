#include "remedy/RewriteReport.h"

namespace oe {

QString RewriteVerify::summary() const
{
    return QStringLiteral("%1: %2 entries of %3; %4 hold the rewrite, %5 rewritten by the "
                          "application since, %6 deleted, %7 mismatched.")
        .arg(ok() ? QStringLiteral("Verified") : QStringLiteral("Not verified"))
        .arg(entries)
        .arg(recorded)
        .arg(matching)
        .arg(changedSince)
        .arg(deleted)
        .arg(mismatched);
}

} // namespace oe
