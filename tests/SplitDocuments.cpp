#include "SplitDocuments.h"

#include "LiveDocuments.h"

#include <QFile>
#include <QStringList>

#include <cstring>

namespace fixtures {

std::vector<QByteArray> dumpDocuments(const QString &path)
{
    std::vector<QByteArray> docs;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return docs;
    const QByteArray all = f.readAll();
    for (qsizetype at = 0; at + 4 <= all.size();) {
        qint32 len = 0;
        std::memcpy(&len, all.constData() + at, 4);
        if (len < 5)
            break;
        docs.push_back(all.mid(at, len));
        at += len;
    }
    return docs;
}

std::map<QByteArray, QList<QByteArray>> reassembled(const QString &uri, const QString &database,
                                                    const QString &collection, const QString &field)
{
    std::map<QByteArray, QList<QByteArray>> out;
    std::map<QByteArray, std::map<std::int64_t, QByteArray>> pages;
    for (const auto &[id, page] :
         readCollection(uri, database, collection + QStringLiteral("_overflow"))) {
        const QByteArray link = fieldOf(page, QStringLiteral("parent_id"));
        const std::int64_t n = numberOf(page, QStringLiteral("page"));
        if (pages[link].count(n))
            qFatal("duplicate overflow page");
        pages[link][n] = page;
    }
    for (const auto &[id, doc] : readCollection(uri, database, collection)) {
        QList<QByteArray> all = elementsOf(doc, field);
        std::int64_t expect = 0;
        for (const auto &[n, page] : pages[id]) {
            if (n != expect++)
                qFatal("a gap in the overflow pages");
            all += elementsOf(page, field);
        }
        out[id] = all;
    }
    return out;
}

QString elementDifference(const QByteArray &id, const QList<QByteArray> &actual,
                          const QList<QByteArray> &expected)
{
    auto text = [](const QByteArray &raw) {
        return raw.startsWith(char(0x02)) && raw.size() > 5 // a BSON string: its text
                   ? QString::fromUtf8(raw.mid(5, raw.size() - 6))
                   : QString::fromLatin1(raw.toHex());
    };
    QStringList missing, extra;
    for (const QByteArray &e : expected)
        if (actual.count(e) < expected.count(e))
            missing << text(e);
    for (const QByteArray &e : actual)
        if (actual.count(e) > expected.count(e))
            extra << text(e);
    missing.removeDuplicates();
    extra.removeDuplicates();
    return QStringLiteral("document %1: %2 element(s), expected %3; missing: [%4]; extra or "
                          "duplicated: [%5]")
        .arg(QString::fromLatin1(id.toHex()))
        .arg(actual.size())
        .arg(expected.size())
        .arg(missing.join(QLatin1Char(',')), extra.join(QLatin1Char(',')));
}

} // namespace fixtures
