#include "VersionDocuments.h"

#include "BsonFixtures.h"

#include <QString>

namespace fixtures {

namespace {

QString versionOne(int i, bool versioned)
{
    const QString version = versioned ? QStringLiteral(R"("schema_version": 1, )") : QString();
    const QString note = (i == 10 || i == 20 || i == 30)
                             ? QStringLiteral(R"(, "legacy_note": "imported %1")").arg(i)
                             : QString();
    return QStringLiteral(R"({"_id": %1, %2"name": "user %1", "address": "%1 Main St"%3})")
        .arg(i)
        .arg(version, note);
}

QString versionTwo(int i)
{
    const QString address =
        (i == 950 || i == 960)
            ? QStringLiteral(R"("%1 Old Rd")").arg(i)
            : QStringLiteral(R"({"street": "%1 Main St", "city": "Lyon"})").arg(i);
    return QStringLiteral(R"({"_id": %1, "schema_version": 2, "name": "user %1",
                             "address": %2, "phone": "555-%1"})")
        .arg(i)
        .arg(address);
}

QString versionThree(int i)
{
    return QStringLiteral(R"({"_id": %1, "schema_version": 3, "name": "user %1",
                             "address": {"street": "%1 Main St", "city": "Lyon"},
                             "phone": ["555-%1", "556-%1"], "email": "u%1@example.com"})")
        .arg(i);
}

} // namespace

QList<QByteArray> versionedDocuments(int unversioned)
{
    QList<QByteArray> docs;
    for (int i = 0; i < 1000; ++i) {
        const QString json = i < 900   ? versionOne(i, i >= unversioned)
                             : i < 992 ? versionTwo(i)
                                       : versionThree(i);
        docs << bson(json.toUtf8().constData());
    }
    return docs;
}

} // namespace fixtures
