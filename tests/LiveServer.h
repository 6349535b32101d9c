#pragma once

#include <QMap>
#include <QString>

namespace fixtures {

// One running live-test server, as its CTest fixture described it in OE_LIVE_DIR/<variant>/env
// (tests/live/mongod-fixture.sh or ferretdb-fixture.sh: OE_TEST_URI, OE_TEST_SERVER, ...). The
// one reader of those files: tests ask it for the URI and for what the server is, so that a test
// registered on both servers states where their behaviours differ.
class LiveServer
{
public:
    static LiveServer open(const QString &variant = QStringLiteral("plain"));

    bool isValid() const { return !uri().isEmpty(); }
    QString uri() const { return value(QStringLiteral("OE_TEST_URI")); }
    QString value(const QString &key) const { return m_env.value(key); }
    // mongod (MongoDB's own server) or FerretDB 1.x (the compatibility server).
    bool isMongod() const
    {
        return value(QStringLiteral("OE_TEST_SERVER")) == QLatin1String("mongod");
    }
    bool isFerretDb() const
    {
        return value(QStringLiteral("OE_TEST_SERVER")) == QLatin1String("ferretdb");
    }
    // For a failed QVERIFY2: which file was missing.
    QString missing() const;

private:
    QString m_file;
    QMap<QString, QString> m_env;
};

} // namespace fixtures
