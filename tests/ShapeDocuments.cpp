#include "ShapeDocuments.h"

#include "BsonFixtures.h"

#include <QStringList>

namespace fixtures {

namespace {

QString daily(int i)
{
    QStringList days;
    for (int d = 0; d < 3; ++d)
        days << QStringLiteral(R"("2024-%1-%2": {"views": %3})")
                    .arg(1 + (i + d) / 28 % 12, 2, 10, QLatin1Char('0'))
                    .arg(1 + (i + d) % 28, 2, 10, QLatin1Char('0'))
                    .arg(d);
    return QStringLiteral(R"("daily": {%1})").arg(days.join(QStringLiteral(", ")));
}

QString outliers(int i)
{
    QStringList extra{daily(i)};
    if (i == 10 || i == 500 || i == 900)
        extra << QStringLiteral(R"("legacyFlag": true)");
    if (i == 42 || i == 43)
        extra << QStringLiteral(R"("payload": "%1")").arg(QString(300000 + i, QLatin1Char('p')));
    if (i == 77)
        for (int k = 0; k < 300; ++k)
            extra << QStringLiteral(R"("extra%1": %1)").arg(k);
    if (i == 99) {
        QString deep = QStringLiteral("1");
        for (int k = 0; k < 48; ++k)
            deep = QStringLiteral(R"({"n": %1})").arg(deep);
        extra << QStringLiteral(R"("deep": %1)").arg(deep);
    }
    return extra.join(QStringLiteral(", "));
}

} // namespace

QList<QByteArray> shapeDocuments(bool withOutliers)
{
    QList<QByteArray> docs;
    for (int i = 0; i < 1000; ++i) {
        const bool stringAmount = withOutliers && (i == 7 || i == 507);
        const bool stringCode = withOutliers && (i == 11 || i == 600);
        const QString json =
            QStringLiteral(R"({"_id": %1, "name": "u%1", "amount": %2, "codes": [1, 2, %3]%4})")
                .arg(i)
                .arg(stringAmount ? QStringLiteral("\"%1\"").arg(i) : QString::number(i))
                .arg(stringCode ? QStringLiteral("\"x\"") : QStringLiteral("3"))
                .arg(withOutliers ? QStringLiteral(", ") + outliers(i) : QString());
        docs << bson(json.toUtf8().constData());
    }
    return docs;
}

} // namespace fixtures
