// bench_naive_split: the baseline for `outlier-explorer-cli split --uri ... --yes`.
//
// The outlier pattern applied the way the pattern write-ups do it (MongoDB's "Group Data with
// the Outlier Pattern", the "Unbounded Growth" chapters, the lazy/batch migration scripts):
// one command at a time, each waiting for its reply before the next is sent.
//   1. find({"<FIELD>.<KEEP>": {$exists: true}}, {projection: {_id: 1}}): the ids of the
//      documents whose array is longer than KEEP (collected first, like the seed's
//      `find(...).toArray()`, so the loop's writes cannot disturb the cursor)
//   2. for each id:
//        findOne({_id})                                                   one round trip
//        split in the client: the first KEEP elements stay, the rest go in pages of PAGESIZE
//        insertOne({parent_id: _id, page: k, <items>: [...]}) per page     one round trip each
//        updateOne({_id}, {$set: {<FIELD>: <first KEEP>, has_extras: true}})  one round trip
// No batching, no journal, no guard against concurrent writes, no index: the baseline.
// Overflow pages go to <COLLECTION>_overflow and look like the ones `split` writes
// (parent_id, page from 0, the items under the array's own name, i.e. its last path segment).
//
// The client is set up like the product's (core/MongoConnection.cpp): appname
// "outlier-explorer", serverSelectionTimeoutMS/connectTimeoutMS 10000, socketTimeoutMS 120000
// unless the URI sets them, error API version 2; reads go to the primary (findOne before a
// write must read what the write will change). Command monitoring (APM) counts the commands
// sent and the time spent waiting for their replies.
//
// Usage: bench_naive_split URI DB COLLECTION FIELD KEEP PAGESIZE
//        bench_naive_split --drop URI DB NAME...
//   --drop: not part of the measurement; drops the named collections (missing ones are fine)
//   and exits, so run-split-benchmark.sh can start each run from clean collections.
// Prints (one "key: value" per line, for run-split-benchmark.sh to parse):
//   documents (split), pages (inserted), elements_moved, commands (sent, getMores included),
//   command_seconds (sum of the commands' client-side durations), seconds, docs_per_s,
//   peak_rss_kb
// "seconds" runs from creating the client to the last update's reply (connection, server
// selection, the id query and the whole loop), not process start-up.
// Exit status: 0 on success, 1 on a connection or command error, 2 on bad usage.

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
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    return usage.ru_maxrss; // kilobytes on Linux
}

struct CommandStats
{
    std::uint64_t commands = 0;
    std::int64_t micros = 0;
};

void commandDone(const mongoc_apm_command_succeeded_t *event)
{
    auto *stats = static_cast<CommandStats *>(mongoc_apm_command_succeeded_get_context(event));
    ++stats->commands;
    stats->micros += mongoc_apm_command_succeeded_get_duration(event);
}

void commandFailed(const mongoc_apm_command_failed_t *event)
{
    auto *stats = static_cast<CommandStats *>(mongoc_apm_command_failed_get_context(event));
    ++stats->commands;
    stats->micros += mongoc_apm_command_failed_get_duration(event);
}

bool parseCount(const char *text, long long min, long long *out)
{
    char *end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (!end || end == text || *end != '\0' || v < min || v > (1LL << 30))
        return false;
    *out = v;
    return true;
}

// Appends `it`'s value to `array` at index `index`.
void appendAt(bson_t *array, std::uint32_t index, const bson_iter_t *it)
{
    char buffer[16];
    const char *key = nullptr;
    const std::size_t len = bson_uint32_to_string(index, &key, buffer, sizeof buffer);
    bson_append_iter(array, key, int(len), it);
}

// bson_t and bson_value_t carry alignment attributes that template arguments drop (GCC's
// -Wignored-attributes): vectors hold them wrapped.
struct IdValue
{
    bson_value_t value;
};
struct PageDoc
{
    bson_t *doc;
};

int usage(const char *argv0)
{
    std::fprintf(stderr,
                 "usage: %s URI DB COLLECTION FIELD KEEP PAGESIZE\n"
                 "       %s --drop URI DB NAME...\n",
                 argv0, argv0);
    return 2;
}

// --drop URI DB NAME...: drops each collection; "ns not found" (code 26) is not an error.
int dropCollections(int argc, char **argv)
{
    bench::initDriver();
    int failure = 0;
    mongoc_client_t *client = bench::openClient("bench_naive_split", argv[2], false, &failure);
    if (!client) {
        mongoc_cleanup();
        return failure;
    }
    bson_error_t error;
    int status = 0;
    for (int i = 4; i < argc && status == 0; ++i) {
        mongoc_collection_t *c = mongoc_client_get_collection(client, argv[3], argv[i]);
        if (!mongoc_collection_drop_with_opts(c, nullptr, &error) && error.code != 26) {
            std::fprintf(stderr, "bench_naive_split: dropping %s.%s: %s\n", argv[3], argv[i],
                         error.message);
            status = 1;
        }
        mongoc_collection_destroy(c);
    }
    mongoc_client_destroy(client);
    mongoc_cleanup();
    return status;
}

} // namespace

int main(int argc, char **argv)
{
    const char *argv0 = argc > 0 ? argv[0] : "bench_naive_split";
    if (argc >= 5 && std::strcmp(argv[1], "--drop") == 0)
        return dropCollections(argc, argv);
    if (argc != 7)
        return usage(argv0);
    const char *uriText = argv[1];
    const char *dbName = argv[2];
    const std::string collName = argv[3];
    const std::string field = argv[4];
    long long keep = 0, pageSize = 0;
    if (!parseCount(argv[5], 0, &keep) || !parseCount(argv[6], 1, &pageSize)) {
        std::fprintf(stderr, "bench_naive_split: KEEP must be >= 0 and PAGESIZE >= 1\n");
        return usage(argv0);
    }
    const std::string items = field.substr(field.rfind('.') + 1); // npos + 1 == 0
    const std::string overflowName = collName + "_overflow";
    const std::string element = field + "." + std::to_string(keep);

    bench::initDriver();

    const auto start = std::chrono::steady_clock::now();

    int openFailure = 0;
    mongoc_client_t *client = bench::openClient("bench_naive_split", uriText, false, &openFailure);
    if (!client) {
        mongoc_cleanup();
        return openFailure;
    }
    bson_error_t error;
    CommandStats stats;
    mongoc_apm_callbacks_t *callbacks = mongoc_apm_callbacks_new();
    mongoc_apm_set_command_succeeded_cb(callbacks, commandDone);
    mongoc_apm_set_command_failed_cb(callbacks, commandFailed);
    mongoc_client_set_apm_callbacks(client, callbacks, &stats);

    mongoc_collection_t *source = mongoc_client_get_collection(client, dbName, collName.c_str());
    mongoc_collection_t *overflow =
        mongoc_client_get_collection(client, dbName, overflowName.c_str());

    std::uint64_t documents = 0, pages = 0, moved = 0;
    bool failed = false;
    std::string failure;

    // 1. The ids of the documents to split.
    std::vector<IdValue> ids;
    {
        bson_t filter = BSON_INITIALIZER, cond, opts = BSON_INITIALIZER, projection;
        bson_append_document_begin(&filter, element.c_str(), int(element.size()), &cond);
        BSON_APPEND_BOOL(&cond, "$exists", true);
        bson_append_document_end(&filter, &cond);
        BSON_APPEND_DOCUMENT_BEGIN(&opts, "projection", &projection);
        BSON_APPEND_INT32(&projection, "_id", 1);
        bson_append_document_end(&opts, &projection);
        mongoc_cursor_t *cursor = mongoc_collection_find_with_opts(source, &filter, &opts, nullptr);
        const bson_t *doc = nullptr;
        while (mongoc_cursor_next(cursor, &doc)) {
            bson_iter_t it;
            if (bson_iter_init_find(&it, doc, "_id")) {
                IdValue v;
                bson_value_copy(bson_iter_value(&it), &v.value);
                ids.push_back(v);
            }
        }
        if (mongoc_cursor_error(cursor, &error)) {
            failed = true;
            failure = std::string("finding the documents to split: ") + error.message;
        }
        mongoc_cursor_destroy(cursor);
        bson_destroy(&opts);
        bson_destroy(&filter);
    }

    // 2. One document at a time.
    for (const IdValue &idValue : ids) {
        const bson_value_t &id = idValue.value;
        if (failed)
            break;
        bson_t byId = BSON_INITIALIZER;
        BSON_APPEND_VALUE(&byId, "_id", &id);

        // findOne({_id})
        bson_t findOpts = BSON_INITIALIZER;
        BSON_APPEND_INT64(&findOpts, "limit", 1);
        BSON_APPEND_BOOL(&findOpts, "singleBatch", true);
        mongoc_cursor_t *cursor =
            mongoc_collection_find_with_opts(source, &byId, &findOpts, nullptr);
        bson_destroy(&findOpts);
        const bson_t *found = nullptr;
        bson_t *doc = nullptr;
        if (mongoc_cursor_next(cursor, &found))
            doc = bson_copy(found);
        if (mongoc_cursor_error(cursor, &error)) {
            failed = true;
            failure = std::string("findOne: ") + error.message;
        }
        mongoc_cursor_destroy(cursor);

        // The split, in the client.
        bson_iter_t root, array, e;
        if (!failed && doc && bson_iter_init(&root, doc) &&
            bson_iter_find_descendant(&root, field.c_str(), &array) &&
            BSON_ITER_HOLDS_ARRAY(&array) && bson_iter_recurse(&array, &e)) {
            bson_t kept = BSON_INITIALIZER;
            std::vector<PageDoc> pageDocs;
            std::uint64_t i = 0;
            // Each page document is finished (its array closed) before the next one starts.
            bson_t *page = nullptr;
            bson_t pageArray;
            std::uint32_t inPage = 0;
            auto closePage = [&]() {
                if (!page)
                    return;
                bson_append_array_end(page, &pageArray);
                pageDocs.push_back({page});
                page = nullptr;
            };
            while (bson_iter_next(&e)) {
                if (i < std::uint64_t(keep)) {
                    appendAt(&kept, std::uint32_t(i), &e);
                } else {
                    if (!page || inPage == std::uint32_t(pageSize)) {
                        closePage();
                        page = bson_new();
                        BSON_APPEND_VALUE(page, "parent_id", &id);
                        BSON_APPEND_INT32(page, "page", std::int32_t(pageDocs.size()));
                        bson_append_array_begin(page, items.c_str(), int(items.size()), &pageArray);
                        inPage = 0;
                    }
                    appendAt(&pageArray, inPage++, &e);
                    ++moved;
                }
                ++i;
            }
            closePage();

            if (!pageDocs.empty()) {
                // insertOne per page
                for (const PageDoc &pageDoc : pageDocs) {
                    bson_t *p = pageDoc.doc;
                    if (!failed) {
                        if (mongoc_collection_insert_one(overflow, p, nullptr, nullptr, &error)) {
                            ++pages;
                        } else {
                            failed = true;
                            failure = std::string("insertOne: ") + error.message;
                        }
                    }
                    bson_destroy(p);
                }
                // updateOne({_id}, {$set: {field: kept, has_extras: true}})
                bson_t update = BSON_INITIALIZER, set;
                BSON_APPEND_DOCUMENT_BEGIN(&update, "$set", &set);
                bson_append_array(&set, field.c_str(), int(field.size()), &kept);
                BSON_APPEND_BOOL(&set, "has_extras", true);
                bson_append_document_end(&update, &set);
                if (!failed && !mongoc_collection_update_one(source, &byId, &update, nullptr,
                                                             nullptr, &error)) {
                    failed = true;
                    failure = std::string("updateOne: ") + error.message;
                }
                bson_destroy(&update);
                if (!failed)
                    ++documents;
            }
            bson_destroy(&kept);
        }
        if (doc)
            bson_destroy(doc);
        bson_destroy(&byId);
    }

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    for (IdValue &v : ids)
        bson_value_destroy(&v.value);
    mongoc_collection_destroy(overflow);
    mongoc_collection_destroy(source);
    mongoc_client_destroy(client);
    mongoc_apm_callbacks_destroy(callbacks);
    mongoc_cleanup();

    if (failed) {
        std::fprintf(stderr, "bench_naive_split: %s.%s: %s (after %" PRIu64 " document(s))\n",
                     dbName, collName.c_str(), failure.c_str(), documents);
        return 1;
    }
    const double t = seconds > 0 ? seconds : 1e-9;
    std::printf("documents: %" PRIu64 "\n", documents);
    std::printf("pages: %" PRIu64 "\n", pages);
    std::printf("elements_moved: %" PRIu64 "\n", moved);
    std::printf("commands: %" PRIu64 "\n", stats.commands);
    std::printf("command_seconds: %.3f\n", double(stats.micros) / 1e6);
    std::printf("seconds: %.3f\n", seconds);
    std::printf("docs_per_s: %.1f\n", double(documents) / t);
    std::printf("peak_rss_kb: %ld\n", peakRssKb());
    return 0;
}
