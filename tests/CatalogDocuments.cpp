#include "CatalogDocuments.h"

#include <bson/bson.h>

#include <cstdint>
#include <set>
#include <string>

namespace fixtures {

QList<QByteArray> catalogDocuments(int products, int perProduct)
{
    QList<QByteArray> docs;
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&state](std::uint64_t below) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % below;
    };
    for (int i = 0; i < products; ++i) {
        bson_t doc;
        bson_init(&doc);
        BSON_APPEND_INT32(&doc, "_id", i);
        const std::string name = "product " + std::to_string(i);
        BSON_APPEND_UTF8(&doc, "name", name.c_str());
        BSON_APPEND_DOUBLE(&doc, "price", 1.0 + double(next(10000)) / 100.0);
        BSON_APPEND_UTF8(&doc, "category", i % 3 == 0 ? "books" : i % 3 == 1 ? "tools" : "tv");
        std::set<int> picked;
        while (int(picked.size()) < perProduct)
            picked.insert(int(next(300)));
        for (int a : picked) {
            char key[16];
            std::snprintf(key, sizeof key, "attr_%03d", a);
            switch (a % 4) {
            case 0:
                BSON_APPEND_UTF8(&doc, key, ("value " + std::to_string(next(50))).c_str());
                break;
            case 1:
                BSON_APPEND_DOUBLE(&doc, key, double(next(1000)) / 10.0);
                break;
            case 2:
                BSON_APPEND_INT32(&doc, key, std::int32_t(next(1000)));
                break;
            default:
                BSON_APPEND_BOOL(&doc, key, next(2) == 0);
                break;
            }
        }
        docs << QByteArray(reinterpret_cast<const char *>(bson_get_data(&doc)), qsizetype(doc.len));
        bson_destroy(&doc);
    }
    return docs;
}

QString catalogueField(int k)
{
    return k == 7 ? QStringLiteral("напряжение")
                  : QStringLiteral("attr_%1").arg(k, 3, 10, QLatin1Char('0'));
}

QStringList catalogueFields()
{
    QStringList names;
    for (int k = 0; k < kCatalogueFields; ++k)
        names << catalogueField(k);
    return names;
}

QStringList catalogueFieldsOf(int i)
{
    // Six distinct numbers: (i*37 + j*13 + j*j*7) differ by (j-j')(13 + 7(j+j')), never a
    // multiple of 100 for j, j' in 0..5; 37 is prime to 100, so each number comes 6 times in
    // 100 products.
    QStringList names;
    for (int j = 0; j < 6; ++j)
        names << catalogueField((i * 37 + j * 13 + j * j * 7) % kCatalogueFields);
    return names;
}

QStringList catalogueJson(int products)
{
    QStringList docs;
    for (int i = 0; i < products; ++i) {
        QStringList fields;
        for (const QString &name : catalogueFieldsOf(i)) {
            const int k = name.startsWith(QLatin1String("attr_")) ? name.mid(5).toInt() : 7;
            const QString value = k % 4 == 0   ? QStringLiteral("\"v%1\"").arg(i)
                                  : k % 4 == 1 ? QStringLiteral("%1.5").arg(i)
                                  : k % 4 == 2
                                      ? QString::number(i)
                                      : (i % 2 ? QStringLiteral("true") : QStringLiteral("false"));
            fields << QStringLiteral("\"%1\": %2").arg(name, value);
        }
        docs << QStringLiteral("{\"_id\": %1, \"name\": \"p%1\", %2, \"price\": %3, %4, "
                               "\"tail\": {\"stock\": %1}}")
                    .arg(i)
                    .arg(fields.mid(0, 4).join(QStringLiteral(", ")))
                    .arg(i * 2 + 1)
                    .arg(fields.mid(4).join(QStringLiteral(", ")));
    }
    return docs;
}

} // namespace fixtures
