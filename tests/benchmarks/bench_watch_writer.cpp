// bench_watch_writer: the load for run-watch-benchmark.sh: inserts DOCS documents into a
// collection as fast as one client can (insertMany, 500 a command), one in ten with an `items`
// array over KEEP (a crossing the watch must report; one in EVERY, default 10), the others
// under it (changes the watch's server-side $match drops). Links libmongoc only.
//
// Usage: bench_watch_writer URI DB COLLECTION DOCS KEEP [EVERY]
// Prints "key: value" lines: written, crossing, seconds, writes_per_s.
// Exit status: 0 on success, 1 on a server error, 2 on bad usage.

#include "BenchClient.h"

#include <mongoc/mongoc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        std::fprintf(stderr, "usage: bench_watch_writer URI DB COLLECTION DOCS KEEP [EVERY]\n");
        return 2;
    }
    const long docs = std::strtol(argv[4], nullptr, 10);
    const long keep = std::strtol(argv[5], nullptr, 10);
    const long every = argc == 7 ? std::strtol(argv[6], nullptr, 10) : 10;
    if (docs <= 0 || keep < 0 || every <= 0)
        return 2;
    bench::initDriver();
    bson_error_t error;
    mongoc_client_t *client = mongoc_client_new(argv[1]);
    if (!client) {
        std::fprintf(stderr, "bad URI\n");
        return 2;
    }
    mongoc_collection_t *coll = mongoc_client_get_collection(client, argv[2], argv[3]);
    const auto start = std::chrono::steady_clock::now();
    long written = 0, crossing = 0;
    while (written < docs) {
        bson_t *batch[500];
        std::size_t n = 0;
        for (; n < 500 && written < docs; ++written) {
            bson_t *doc = bson_new();
            BSON_APPEND_INT64(doc, "_id", written);
            bson_t items;
            BSON_APPEND_ARRAY_BEGIN(doc, "items", &items);
            const long length = written % every == 0 ? keep + 1 : keep / 2;
            crossing += written % every == 0;
            for (long k = 0; k < length; ++k) {
                const std::string key = std::to_string(k);
                bson_append_int64(&items, key.c_str(), -1, k);
            }
            bson_append_array_end(doc, &items);
            batch[n++] = doc;
        }
        const bool ok = mongoc_collection_insert_many(coll, const_cast<const bson_t **>(batch), n,
                                                      nullptr, nullptr, &error);
        for (std::size_t i = 0; i < n; ++i)
            bson_destroy(batch[i]);
        if (!ok) {
            std::fprintf(stderr, "insert: %s\n", error.message);
            return 1;
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("written: %ld\ncrossing: %ld\nseconds: %.3f\nwrites_per_s: %.0f\n", written,
                crossing, seconds, double(written) / seconds);
    mongoc_collection_destroy(coll);
    mongoc_client_destroy(client);
    mongoc_cleanup();
    return 0;
}
