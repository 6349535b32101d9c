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

} // namespace fixtures
