#include "analysis/SourceRef.h"

#include "mongo/LiveCollectionSource.h"
#include "mongo/UriRedactor.h"
#include "source/DumpFileSource.h"

#include <QFileInfo>

namespace oe {

QString SourceRef::displayName() const
{
    switch (kind) {
    case Kind::Dump:
        return QFileInfo(dumpPath).fileName();
    case Kind::Collection:
        return connectionName.isEmpty()
                   ? QStringLiteral("%1.%2").arg(database, collection)
                   : QStringLiteral("%1.%2 (%3)").arg(database, collection, connectionName);
    case Kind::None:
        break;
    }
    return {};
}

QString SourceRef::collectionName() const
{
    if (kind == Kind::Collection)
        return collection;
    QString name = QFileInfo(dumpPath).fileName();
    for (const char *suffix : {".gz", ".bson"})
        if (name.endsWith(QLatin1String(suffix)))
            name.chop(qsizetype(qstrlen(suffix)));
    return name;
}

QString SourceRef::key() const
{
    if (kind == Kind::Dump)
        return QStringLiteral("dump:") + QFileInfo(dumpPath).absoluteFilePath();
    return QStringLiteral("live:%1/%2.%3")
        .arg(UriRedactor::redact(settings.uri), database, collection);
}

std::unique_ptr<DocumentSource> SourceRef::openSource(const LiveQuery &query) const
{
    if (kind == Kind::Dump)
        return std::make_unique<DumpFileSource>(dumpPath);
    LiveQuery q = query;
    q.database = database;
    q.collection = collection;
    return std::make_unique<LiveCollectionSource>(settings, q);
}

} // namespace oe
