#include "FlatShapes.h"

#include <bson/bson.h>

#include <string>

namespace fixtures {

namespace {

void profile(bson_t *doc, int i)
{
    if (i % 1499 == 100) {
        BSON_APPEND_UTF8(doc, "profile", "unknown");
        return;
    }
    bson_t p;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "profile", &p);
    if (i != 123) {
        BSON_APPEND_UTF8(&p, "country", i % 2 ? "PT" : "NZ");
        BSON_APPEND_BOOL(&p, "verified", i % 10 == 0);
        BSON_APPEND_DOUBLE(&p, "score", double(i % 100) / 7.0);
        if (i % 4 == 0)
            BSON_APPEND_DATE_TIME(&p, "since", 1700000000000LL + i);
    }
    bson_append_document_end(doc, &p);
}

void planted(bson_t *doc, int i, int count)
{
    if (i == 10 || i == count / 2 || i == count - 10)
        BSON_APPEND_BOOL(doc, "legacyFlag", true);
    if (i == count / 3 || i == count / 3 + 1) {
        bson_t extras;
        BSON_APPEND_ARRAY_BEGIN(doc, "extras", &extras);
        for (int k = 0; k < 50; ++k)
            BSON_APPEND_INT32(&extras, std::to_string(k).c_str(), k);
        bson_append_array_end(doc, &extras);
    }
    if (i == count / 4 || i == count / 4 * 3)
        BSON_APPEND_UTF8(doc, "biography", std::string(300000 + std::size_t(i), 'b').c_str());
    if (i == count / 5)
        for (int k = 0; k < 300; ++k)
            BSON_APPEND_INT32(doc, ("extra" + std::to_string(k)).c_str(), k);
    if (i == count / 6) {
        bson_t levels[40];
        BSON_APPEND_DOCUMENT_BEGIN(doc, "deep", &levels[0]);
        for (int l = 1; l < 40; ++l)
            BSON_APPEND_DOCUMENT_BEGIN(&levels[l - 1], "n", &levels[l]);
        BSON_APPEND_INT32(&levels[39], "leaf", 1);
        for (int l = 39; l > 0; --l)
            bson_append_document_end(&levels[l - 1], &levels[l]);
        bson_append_document_end(doc, &levels[0]);
    }
}

} // namespace

QByteArray flatShapesDump(int count)
{
    QByteArray out;
    for (int i = 0; i < count; ++i) {
        bson_t doc;
        bson_init(&doc);
        BSON_APPEND_INT32(&doc, "_id", i);
        BSON_APPEND_UTF8(&doc, "name", std::string(std::size_t(1 + i % 40), 'n').c_str());
        if (i % 997 == 500)
            BSON_APPEND_UTF8(&doc, "amount", "twelve");
        else
            BSON_APPEND_INT32(&doc, "amount", i % 1000);
        bson_t codes;
        BSON_APPEND_ARRAY_BEGIN(&doc, "codes", &codes);
        for (int k = 0; k < i % 6; ++k)
            BSON_APPEND_INT32(&codes, std::to_string(k).c_str(), k * i);
        bson_append_array_end(&doc, &codes);
        profile(&doc, i);
        if (i % 3 == 0) {
            const std::string bytes(std::size_t(i % 17), 'z');
            BSON_APPEND_BINARY(&doc, "blob", BSON_SUBTYPE_BINARY,
                               reinterpret_cast<const std::uint8_t *>(bytes.data()),
                               std::uint32_t(bytes.size()));
        }
        if (i % 5 == 0)
            BSON_APPEND_NULL(&doc, "note");
        if (i % 11 == 0) {
            bson_oid_t oid;
            bson_oid_init_from_string(&oid, "5f0000000000000000000000");
            bson_decimal128_t dec;
            bson_decimal128_from_string("12.50", &dec);
            BSON_APPEND_INT64(&doc, "total", std::int64_t(i) * 1000000000LL);
            BSON_APPEND_DECIMAL128(&doc, "price", &dec);
            BSON_APPEND_OID(&doc, "ref", &oid);
            BSON_APPEND_TIMESTAMP(&doc, "at", std::uint32_t(i), 1);
        }
        planted(&doc, i, count);
        out.append(reinterpret_cast<const char *>(bson_get_data(&doc)), qsizetype(doc.len));
        bson_destroy(&doc);
    }
    return out;
}

} // namespace fixtures
