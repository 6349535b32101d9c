#include "watch/WatchEnd.h"

#include "mongo/NamespaceLookup.h"

namespace oe {

WatchEnd WatchEnd::failed(const SourceError &error)
{
    WatchEnd end;
    end.reason = Reason::Failed;
    end.error = error;
    return end;
}

QString WatchEnd::message() const
{
    const QString ns = NamespaceLookup::quoted(database + QLatin1Char('.') + collection);
    switch (reason) {
    case Reason::Stopped:
        return QStringLiteral("stopped");
    case Reason::Failed:
        return error.toString();
    case Reason::Dropped:
        return QStringLiteral("%1 was dropped").arg(ns);
    case Reason::Renamed:
        return QStringLiteral("%1 was renamed to %2").arg(ns, NamespaceLookup::quoted(renamedTo));
    case Reason::DatabaseDropped:
        return QStringLiteral("%1 was dropped, and its database %2 with it (no collection is "
                              "left in it)")
            .arg(ns, NamespaceLookup::quoted(database));
    case Reason::Disappeared:
        return QStringLiteral("%1 is gone: %2").arg(ns, error.message);
    case Reason::Invalidated:
        return QStringLiteral("the server ended the change stream on %1 (invalidate)").arg(ns);
    }
    return {};
}

} // namespace oe
