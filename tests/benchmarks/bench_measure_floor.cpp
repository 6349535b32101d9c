// bench_measure_floor: the floor for `outlier-explorer-cli analyze --uri ... --full --measure
// server`.
//
// Opens a libmongoc client with the product's settings (BenchClient.h), runs ONE aggregation
//   [{$project: {_id: 0, s: {$bsonSize: "$$ROOT"}, n0: <length of path 0>, n1: ...}}]
// on the collection and drains it, doing nothing with the replies but count them and sum their
// lengths. It is what a server-side measurement cannot do with less: the server sends one size
// and one length per given array path, and no skeleton, no summaries, no probe, no discovery.
// A top-level path's length is {$size} of the array (0 where it is missing or not an array);
// a nested path (activities.tags) is the sum of the lengths over the outer array's elements,
// or, with --each, their list: one length per element that holds such an array, which is what
// the analysis's length distribution of an array inside array elements needs, no less.
//
// Usage:
//   bench_measure_floor URI DB COLLECTION [--path P]... [--each] [--batch-size N]
//   bench_measure_floor URI --bytes-out
//     prints mongod's serverStatus().network.bytesOut (bytes the server has sent on all its
//     connections since it started, before wire compression) and physicalBytesOut (after it:
//     what crossed the wire) and exits; the benchmark script reads it before and after a run
//     for the bytes that run moved.
// Prints (one "key: value" per line): documents, bytes (the replies' documents), seconds,
//   docs_per_s, mb_per_s (MB = 10^6 bytes), peak_rss_kb.
// "seconds" runs from creating the client to the cursor's end, not process start-up.
// Exit status: 0 on success, 1 on a connection or server error, 2 on bad usage.

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
#include <vector>

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
    std::fprintf(stderr,
                 "usage: %s URI DB COLLECTION [--path P]... [--each] [--batch-size N]\n"
                 "       %s URI --bytes-out\n",
                 argv0, argv0);
    return 2;
}

std::vector<std::string> split(const std::string &path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = path.find('.', start);
        parts.push_back(path.substr(start, dot - start));
        if (dot == std::string::npos)
            return parts;
        start = dot + 1;
    }
}

// Appends to `parent` under `key` the length expression of `segments[from..]` below `base`
// (an aggregation expression: "$activities", "$$e0.tags"):
//   last segment:  {$cond: [{$isArray: base}, {$size: base}, 0]}
//   otherwise:     {$cond: [{$isArray: base}, {$sum: {$map: {input: base, as: eN,
//                            in: <rest below "$$eN.next">}}}, <rest below "base.next">]}
// so an array on the way is summed over its elements and a document on the way is descended.
void appendLength(bson_t *parent, const char *key, const std::string &base,
                  const std::vector<std::string> &segments, std::size_t from)
{
    bson_t cond, args, isArray;
    BSON_APPEND_DOCUMENT_BEGIN(parent, key, &cond);
    BSON_APPEND_ARRAY_BEGIN(&cond, "$cond", &args);
    BSON_APPEND_DOCUMENT_BEGIN(&args, "0", &isArray);
    BSON_APPEND_UTF8(&isArray, "$isArray", base.c_str());
    bson_append_document_end(&args, &isArray);
    if (from + 1 == segments.size()) {
        bson_t size;
        BSON_APPEND_DOCUMENT_BEGIN(&args, "1", &size);
        BSON_APPEND_UTF8(&size, "$size", base.c_str());
        bson_append_document_end(&args, &size);
        BSON_APPEND_INT32(&args, "2", 0);
    } else {
        const std::string var = "e" + std::to_string(from);
        bson_t sum, map, mapArgs;
        BSON_APPEND_DOCUMENT_BEGIN(&args, "1", &sum);
        BSON_APPEND_DOCUMENT_BEGIN(&sum, "$sum", &map);
        BSON_APPEND_DOCUMENT_BEGIN(&map, "$map", &mapArgs);
        BSON_APPEND_UTF8(&mapArgs, "input", base.c_str());
        BSON_APPEND_UTF8(&mapArgs, "as", var.c_str());
        appendLength(&mapArgs, "in", "$$" + var + "." + segments[from + 1], segments, from + 1);
        bson_append_document_end(&map, &mapArgs);
        bson_append_document_end(&sum, &map);
        bson_append_document_end(&args, &sum);
        appendLength(&args, "2", base + "." + segments[from + 1], segments, from + 1);
    }
    bson_append_array_end(&cond, &args);
    bson_append_document_end(parent, &cond);
}

// --each, for a path "a.b" (an array a whose elements hold arrays b): the lengths of the b
// arrays, one per element that holds one (none where a is no array):
//   {$cond: [{$isArray: "$a"}, {$map: {input: {$filter: {input: "$a.b", as: "r",
//            cond: {$isArray: "$$r"}}}, as: "r", in: {$size: "$$r"}}}, []]}
void appendEachLength(bson_t *parent, const char *key, const std::vector<std::string> &segments)
{
    const std::string outer = "$" + segments[0];
    const std::string inner = outer + "." + segments[1];
    bson_t cond, args, isArray, map, mapArgs, filter, filterArgs, holds, size, none;
    BSON_APPEND_DOCUMENT_BEGIN(parent, key, &cond);
    BSON_APPEND_ARRAY_BEGIN(&cond, "$cond", &args);
    BSON_APPEND_DOCUMENT_BEGIN(&args, "0", &isArray);
    BSON_APPEND_UTF8(&isArray, "$isArray", outer.c_str());
    bson_append_document_end(&args, &isArray);
    BSON_APPEND_DOCUMENT_BEGIN(&args, "1", &map);
    BSON_APPEND_DOCUMENT_BEGIN(&map, "$map", &mapArgs);
    BSON_APPEND_DOCUMENT_BEGIN(&mapArgs, "input", &filter);
    BSON_APPEND_DOCUMENT_BEGIN(&filter, "$filter", &filterArgs);
    BSON_APPEND_UTF8(&filterArgs, "input", inner.c_str());
    BSON_APPEND_UTF8(&filterArgs, "as", "r");
    BSON_APPEND_DOCUMENT_BEGIN(&filterArgs, "cond", &holds);
    BSON_APPEND_UTF8(&holds, "$isArray", "$$r");
    bson_append_document_end(&filterArgs, &holds);
    bson_append_document_end(&filter, &filterArgs);
    bson_append_document_end(&mapArgs, &filter);
    BSON_APPEND_UTF8(&mapArgs, "as", "r");
    BSON_APPEND_DOCUMENT_BEGIN(&mapArgs, "in", &size);
    BSON_APPEND_UTF8(&size, "$size", "$$r");
    bson_append_document_end(&mapArgs, &size);
    bson_append_document_end(&map, &mapArgs);
    bson_append_document_end(&args, &map);
    BSON_APPEND_ARRAY_BEGIN(&args, "2", &none);
    bson_append_array_end(&args, &none);
    bson_append_array_end(&cond, &args);
    bson_append_document_end(parent, &cond);
}

int printBytesOut(mongoc_client_t *client)
{
    bson_t command = BSON_INITIALIZER;
    BSON_APPEND_INT32(&command, "serverStatus", 1);
    bson_t reply;
    bson_error_t error;
    const bool ok =
        mongoc_client_command_simple(client, "admin", &command, nullptr, &reply, &error);
    bson_destroy(&command);
    int status = 1;
    bson_iter_t it, bytesOut;
    if (!ok) {
        std::fprintf(stderr, "bench_measure_floor: serverStatus failed: %s\n", error.message);
    } else if (bson_iter_init(&it, &reply) &&
               bson_iter_find_descendant(&it, "network.bytesOut", &bytesOut) &&
               BSON_ITER_HOLDS_NUMBER(&bytesOut)) {
        std::printf("bytes_out: %" PRId64 "\n", bson_iter_as_int64(&bytesOut));
        // What crossed the wire: bytesOut counts replies before wire compression.
        bson_iter_t physical;
        if (bson_iter_init(&it, &reply) &&
            bson_iter_find_descendant(&it, "network.physicalBytesOut", &physical) &&
            BSON_ITER_HOLDS_NUMBER(&physical))
            std::printf("physical_bytes_out: %" PRId64 "\n", bson_iter_as_int64(&physical));
        status = 0;
    } else {
        std::fprintf(stderr, "bench_measure_floor: serverStatus has no network.bytesOut\n");
    }
    bson_destroy(&reply);
    return status;
}

} // namespace

int main(int argc, char **argv)
{
    const char *argv0 = argc > 0 ? argv[0] : "bench_measure_floor";
    if (argc == 3 && std::strcmp(argv[2], "--bytes-out") == 0) {
        bench::initDriver();
        int failure = 0;
        mongoc_client_t *client =
            bench::openClient("bench_measure_floor", argv[1], false, &failure);
        if (client) {
            failure = printBytesOut(client);
            mongoc_client_destroy(client);
        }
        mongoc_cleanup();
        return failure;
    }
    if (argc < 4)
        return usage(argv0);
    long batchSize = 0;
    bool each = false;
    std::vector<std::string> paths;
    for (int i = 4; i < argc; ++i) {
        if (std::strcmp(argv[i], "--batch-size") == 0 && i + 1 < argc) {
            char *end = nullptr;
            const char *value = argv[++i];
            batchSize = std::strtol(value, &end, 10);
            if (!end || end == value || *end != '\0' || batchSize < 1 || batchSize > (1L << 30)) {
                std::fprintf(stderr, "bench_measure_floor: bad --batch-size: %s\n", value);
                return 2;
            }
        } else if (std::strcmp(argv[i], "--each") == 0) {
            each = true;
        } else if (std::strcmp(argv[i], "--path") == 0 && i + 1 < argc) {
            paths.emplace_back(argv[++i]);
            if (split(paths.back()).size() > 2) {
                std::fprintf(stderr, "bench_measure_floor: --path %s: at most two levels\n",
                             argv[i]);
                return 2;
            }
            if (paths.back().empty() || paths.back().front() == '$' ||
                paths.back().find("..") != std::string::npos) {
                std::fprintf(stderr, "bench_measure_floor: bad --path: %s\n", argv[i]);
                return 2;
            }
        } else {
            return usage(argv0);
        }
    }
    const char *uriText = argv[1];
    const char *dbName = argv[2];
    const char *collName = argv[3];

    // [{$project: {_id: 0, s: {$bsonSize: "$$ROOT"}, n0: ..., n1: ...}}]
    bson_t pipeline = BSON_INITIALIZER;
    {
        bson_t stage, project, size;
        BSON_APPEND_DOCUMENT_BEGIN(&pipeline, "0", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$project", &project);
        BSON_APPEND_INT32(&project, "_id", 0);
        BSON_APPEND_DOCUMENT_BEGIN(&project, "s", &size);
        BSON_APPEND_UTF8(&size, "$bsonSize", "$$ROOT");
        bson_append_document_end(&project, &size);
        for (std::size_t p = 0; p < paths.size(); ++p) {
            const std::vector<std::string> segments = split(paths[p]);
            const std::string key = "n" + std::to_string(p);
            if (each && segments.size() == 2)
                appendEachLength(&project, key.c_str(), segments);
            else
                appendLength(&project, key.c_str(), "$" + segments[0], segments, 0);
        }
        bson_append_document_end(&stage, &project);
        bson_append_document_end(&pipeline, &stage);
    }

    bench::initDriver();
    const auto start = std::chrono::steady_clock::now();
    int failure = 0;
    mongoc_client_t *client = bench::openClient("bench_measure_floor", uriText, true, &failure);
    if (!client) {
        bson_destroy(&pipeline);
        mongoc_cleanup();
        return failure;
    }
    mongoc_collection_t *collection = mongoc_client_get_collection(client, dbName, collName);
    bson_t opts = BSON_INITIALIZER;
    if (batchSize > 0)
        BSON_APPEND_INT32(&opts, "batchSize", std::int32_t(batchSize));
    mongoc_cursor_t *cursor =
        mongoc_collection_aggregate(collection, MONGOC_QUERY_NONE, &pipeline, &opts, nullptr);
    bson_destroy(&opts);
    bson_destroy(&pipeline);

    const bench::Drained drained = bench::drain(cursor);
    mongoc_cursor_destroy(cursor);
    mongoc_collection_destroy(collection);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    mongoc_client_destroy(client);
    mongoc_cleanup();

    if (drained.failed) {
        std::fprintf(stderr,
                     "bench_measure_floor: the aggregation on %s.%s failed after %" PRIu64
                     " document(s): %s (domain %" PRIu32 ", code %" PRIu32 ")\n",
                     dbName, collName, drained.documents, drained.error.message,
                     drained.error.domain, drained.error.code);
        return 1;
    }
    bench::printDrained(drained, seconds, peakRssKb());
    return 0;
}
