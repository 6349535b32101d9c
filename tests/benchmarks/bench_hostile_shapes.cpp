// Writes the hostile shapes of issue 37 as mongodump .bson files, for run-shape-benchmark.sh:
//   million_keys.bson  1,000 documents, each {_id, m: {<1,000 keys>}}: a million distinct keys
//   deep.bson          1,000 documents nested 100 levels deep
//   wide.bson          10 documents of 100,000 top-level fields each
// Links libbson only. Usage: bench_hostile_shapes DIR
#include <bson/bson.h>

#include <cstdio>
#include <string>

namespace {

bool put(std::FILE *out, const bson_t *doc)
{
    return std::fwrite(bson_get_data(doc), 1, doc->len, out) == doc->len;
}

bool millionKeys(std::FILE *out)
{
    for (int i = 0; i < 1000; ++i) {
        bson_t doc = BSON_INITIALIZER, m;
        BSON_APPEND_INT32(&doc, "_id", i);
        BSON_APPEND_DOCUMENT_BEGIN(&doc, "m", &m);
        for (int k = 0; k < 1000; ++k)
            BSON_APPEND_INT32(&m, std::to_string(i * 1000 + k).c_str(), k);
        bson_append_document_end(&doc, &m);
        const bool ok = put(out, &doc);
        bson_destroy(&doc);
        if (!ok)
            return false;
    }
    return true;
}

bool deep(std::FILE *out)
{
    for (int i = 0; i < 1000; ++i) {
        bson_t *inner = bson_new();
        BSON_APPEND_INT32(inner, "v", i);
        for (int level = 0; level < 98; ++level) { // 99 objects below the document
            bson_t *outer = bson_new();
            BSON_APPEND_DOCUMENT(outer, "n", inner);
            bson_destroy(inner);
            inner = outer;
        }
        bson_t doc = BSON_INITIALIZER;
        BSON_APPEND_INT32(&doc, "_id", i);
        BSON_APPEND_DOCUMENT(&doc, "deep", inner);
        bson_destroy(inner);
        const bool ok = put(out, &doc);
        bson_destroy(&doc);
        if (!ok)
            return false;
    }
    return true;
}

bool wide(std::FILE *out)
{
    for (int i = 0; i < 10; ++i) {
        bson_t doc = BSON_INITIALIZER;
        BSON_APPEND_INT32(&doc, "_id", i);
        for (int k = 0; k < 100000; ++k)
            BSON_APPEND_INT32(&doc, ("f" + std::to_string(k)).c_str(), k);
        const bool ok = put(out, &doc);
        bson_destroy(&doc);
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const std::pair<const char *, bool (*)(std::FILE *)> files[] = {
        {"million_keys.bson", millionKeys}, {"deep.bson", deep}, {"wide.bson", wide}};
    for (const auto &[name, write] : files) {
        const std::string path = dir + "/" + name;
        const std::string temporary = path + ".tmp";
        std::FILE *out = std::fopen(temporary.c_str(), "wb");
        if (!out || !write(out) || std::fclose(out) != 0 ||
            std::rename(temporary.c_str(), path.c_str()) != 0) {
            std::fprintf(stderr, "bench_hostile_shapes: cannot write %s\n", path.c_str());
            return 1;
        }
        std::printf("%s\n", path.c_str());
    }
    return 0;
}
