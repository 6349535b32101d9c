#include "BsonFixtures.h"

#include "bson/JsonIndenter.h"

#include <QFile>

#include <bson/bson.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>

namespace fixtures {

const char *const kMixedTypes =
    "{\"_id\": {\"$oid\": \"65a1b2c3d4e5f60718293a4b\"}, \"name\": \"Ada\", \"n\": 42, "
    "\"big\": {\"$numberLong\": \"9007199254740993\"}, \"x\": 1.5, \"ok\": true, "
    "\"nothing\": null, \"when\": {\"$date\": \"2024-01-02T03:04:05Z\"}, "
    "\"sub\": {\"a\": 1, \"b\": \"two\", \"c\": {\"d\": [1, 2]}}, "
    "\"list\": [10, \"s\", {\"k\": 1}, [1, 2, 3]], \"empty\": {}, \"none\": []}";

QByteArray bson(const char *json)
{
    bson_error_t error;
    bson_t *doc = bson_new_from_json(reinterpret_cast<const std::uint8_t *>(json), -1, &error);
    if (!doc) {
        std::fprintf(stderr, "fixture JSON invalid: %s: %s\n", error.message, json);
        std::abort();
    }
    QByteArray bytes(reinterpret_cast<const char *>(bson_get_data(doc)), qsizetype(doc->len));
    bson_destroy(doc);
    return bytes;
}

QByteArray concat(const QList<QByteArray> &documents)
{
    QByteArray all;
    for (const auto &d : documents)
        all += d;
    return all;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool writeGzip(const QString &path, const QByteArray &bytes)
{
    gzFile gz = gzopen(QFile::encodeName(path).constData(), "wb");
    if (!gz)
        return false;
    const int n = gzwrite(gz, bytes.constData(), unsigned(bytes.size()));
    return gzclose(gz) == Z_OK && n == bytes.size();
}

QByteArray documentOfSize(int id, int size)
{
    bson_t *doc = bson_new();
    BSON_APPEND_INT32(doc, "_id", id);
    // int32 _id element = 1+4+4 = 9; string element "pad" = 1+4+4+len+1; doc overhead 5.
    const int padLength = size - 5 - 9 - (1 + 4 + 4 + 1);
    std::string pad(std::size_t(std::max(0, padLength)), 'x');
    BSON_APPEND_UTF8(doc, "pad", pad.c_str());
    QByteArray bytes(reinterpret_cast<const char *>(bson_get_data(doc)), qsizetype(doc->len));
    bson_destroy(doc);
    return bytes;
}

QByteArray documentWithArray(int id, int length, const char *field)
{
    bson_t *doc = bson_new();
    BSON_APPEND_INT32(doc, "_id", id);
    bson_t array;
    BSON_APPEND_ARRAY_BEGIN(doc, field, &array);
    for (int i = 0; i < length; ++i) {
        char key[16];
        const char *k = nullptr;
        bson_uint32_to_string(std::uint32_t(i), &k, key, sizeof key);
        BSON_APPEND_INT32(&array, k, i);
    }
    bson_append_array_end(doc, &array);
    QByteArray bytes(reinterpret_cast<const char *>(bson_get_data(doc)), qsizetype(doc->len));
    bson_destroy(doc);
    return bytes;
}

QByteArray documentJsonAt(const QString &path, qsizetype index)
{
    QByteArray out;
    bson_reader_t *reader = bson_reader_new_from_file(QFile::encodeName(path).constData(), nullptr);
    if (!reader)
        return out;
    const bson_t *doc = nullptr;
    for (qsizetype i = 0; (doc = bson_reader_read(reader, nullptr)); ++i)
        if (i == index) {
            char *json = bson_as_relaxed_extended_json(doc, nullptr);
            out = QByteArray(json);
            bson_free(json);
            break;
        }
    bson_reader_destroy(reader);
    return out;
}

QByteArray jsonOf(const QByteArray &bytes)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())))
        return {};
    char *json = bson_as_relaxed_extended_json(&doc, nullptr);
    const QByteArray out(json);
    bson_free(json);
    return out;
}

QList<ReferenceDocument> readReference(const QString &path)
{
    QList<ReferenceDocument> result;
    bson_reader_t *reader = bson_reader_new_from_file(QFile::encodeName(path).constData(), nullptr);
    if (!reader)
        return result;
    const bson_t *doc = nullptr;
    while ((doc = bson_reader_read(reader, nullptr))) {
        ReferenceDocument ref;
        ref.size = doc->len;
        bson_iter_t it;
        bson_iter_init(&it, doc);
        while (bson_iter_next(&it)) {
            if (std::string_view(bson_iter_key(&it)) == "_id") {
                bson_t single = BSON_INITIALIZER;
                bson_append_iter(&single, "_id", 3, &it);
                std::size_t len = 0;
                char *json = bson_as_relaxed_extended_json(&single, &len);
                QString text = QString::fromStdString(oe::JsonIndenter::compact(json, len));
                bson_free(json);
                bson_destroy(&single);
                ref.id = text.mid(7, text.size() - 8); // strip {"_id": ... }
            }
            if (BSON_ITER_HOLDS_ARRAY(&it)) {
                bson_iter_t child;
                bson_iter_recurse(&it, &child);
                std::uint32_t n = 0;
                while (bson_iter_next(&child))
                    ++n;
                if (n > ref.longestArrayLength) {
                    ref.longestArrayLength = n;
                    ref.longestArrayPath = QString::fromUtf8(bson_iter_key(&it));
                }
            }
        }
        result << ref;
    }
    bson_reader_destroy(reader);
    return result;
}

std::uint64_t bytesBeyond(const QString &path, const QString &field, std::uint64_t keep)
{
    std::uint64_t bytes = 0;
    bson_reader_t *reader = bson_reader_new_from_file(QFile::encodeName(path).constData(), nullptr);
    if (!reader)
        return 0;
    const QByteArray key = field.toUtf8();
    const bson_t *doc = nullptr;
    while ((doc = bson_reader_read(reader, nullptr))) {
        bson_iter_t it;
        bson_iter_t child;
        if (!bson_iter_init_find(&it, doc, key.constData()) || !BSON_ITER_HOLDS_ARRAY(&it) ||
            !bson_iter_recurse(&it, &child))
            continue;
        for (std::uint64_t i = 0; bson_iter_next(&child); ++i)
            if (i >= keep)
                bytes += child.next_off - child.off;
    }
    bson_reader_destroy(reader);
    return bytes;
}

} // namespace fixtures
