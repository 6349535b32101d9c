// bench_cursor_drain: the floor for `outlier-explorer-cli analyze --uri ... --full`.
//
// Opens a libmongoc client with the settings the product uses (core/MongoConnection.cpp:
// appname "outlier-explorer", serverSelectionTimeoutMS/connectTimeoutMS 10000,
// socketTimeoutMS 120000 unless the URI sets them, read preference secondaryPreferred unless
// the URI has readPreference, error API version 2), runs find({}) on the collection and pulls
// every document off the cursor. It does nothing with them but count them and sum their
// lengths (so the loop has an observable result the compiler cannot drop): no copy, no walk.
// Whatever a live `analyze --full` spends beyond this is the cost of the analysis itself.
//
// Usage: bench_cursor_drain URI DB COLLECTION [--batch-size N] [--estimated-count]
//   --batch-size N     the find's batchSize option (default: none, i.e. the driver's/server's)
//   --estimated-count  diagnostic, not part of the floor: before the find, run the
//                      estimatedDocumentCount that `analyze` runs when it opens a collection
//                      (for its progress estimate), and time it separately
// Prints (one "key: value" per line, for run-live-benchmark.sh to parse):
//   documents, bytes, seconds, docs_per_s, mb_per_s (MB = 10^6 bytes), peak_rss_kb
//   and with --estimated-count also estimated_count, estimated_count_seconds
// "seconds" runs from creating the client to the cursor's end (connection, server selection,
// the count if asked for, and the whole scan), not process start-up.
// Exit status: 0 on success, 1 on a connection or cursor error, 2 on bad usage.

#include "BenchClient.h"

#include <mongoc/mongoc.h>

#include <sys/resource.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

long peakRssKb()
{
    struct rusage usage
    {
    };
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    return usage.ru_maxrss; // kilobytes on Linux
}

int usage(const char *argv0)
{
    std::fprintf(stderr, "usage: %s URI DB COLLECTION [--batch-size N] [--estimated-count]\n",
                 argv0);
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    const char *argv0 = argc > 0 ? argv[0] : "bench_cursor_drain";
    if (argc < 4)
        return usage(argv0);
    long batchSize = 0;
    bool estimatedCount = false;
    for (int i = 4; i < argc; ++i) {
        if (std::strcmp(argv[i], "--batch-size") == 0 && i + 1 < argc) {
            char *end = nullptr;
            const char *value = argv[++i];
            batchSize = std::strtol(value, &end, 10);
            if (!end || end == value || *end != '\0' || batchSize < 1 || batchSize > (1L << 30)) {
                std::fprintf(stderr, "bench_cursor_drain: bad --batch-size: %s\n", value);
                return 2;
            }
        } else if (std::strcmp(argv[i], "--estimated-count") == 0) {
            estimatedCount = true;
        } else {
            return usage(argv0);
        }
    }
    const char *uriText = argv[1];
    const char *dbName = argv[2];
    const char *collName = argv[3];

    bench::initDriver();

    const auto start = std::chrono::steady_clock::now();

    int failure = 0;
    mongoc_client_t *client = bench::openClient("bench_cursor_drain", uriText, true, &failure);
    if (!client) {
        mongoc_cleanup();
        return failure;
    }
    bson_error_t error;

    mongoc_collection_t *collection = mongoc_client_get_collection(client, dbName, collName);
    std::int64_t estimated = -1;
    double countSeconds = 0;
    if (estimatedCount) {
        const auto countStart = std::chrono::steady_clock::now();
        estimated = mongoc_collection_estimated_document_count(collection, nullptr, nullptr,
                                                               nullptr, &error);
        countSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - countStart).count();
        if (estimated < 0)
            std::fprintf(stderr, "bench_cursor_drain: estimatedDocumentCount failed: %s\n",
                         error.message);
    }
    bson_t filter = BSON_INITIALIZER;
    bson_t opts = BSON_INITIALIZER;
    if (batchSize > 0)
        BSON_APPEND_INT32(&opts, "batchSize", std::int32_t(batchSize));
    mongoc_cursor_t *cursor = mongoc_collection_find_with_opts(collection, &filter, &opts, nullptr);
    bson_destroy(&opts);
    bson_destroy(&filter);

    const bench::Drained drained = bench::drain(cursor);
    mongoc_cursor_destroy(cursor);
    mongoc_collection_destroy(collection);

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    mongoc_client_destroy(client);
    mongoc_cleanup();

    if (drained.failed) {
        std::fprintf(stderr,
                     "bench_cursor_drain: reading %s.%s failed after %" PRIu64
                     " document(s): %s (domain %" PRIu32 ", code %" PRIu32 ")\n",
                     dbName, collName, drained.documents, drained.error.message,
                     drained.error.domain, drained.error.code);
        return 1;
    }

    bench::printDrained(drained, seconds, peakRssKb());
    if (estimatedCount) {
        std::printf("estimated_count: %" PRId64 "\n", estimated);
        std::printf("estimated_count_seconds: %.3f\n", countSeconds);
    }
    return 0;
}
