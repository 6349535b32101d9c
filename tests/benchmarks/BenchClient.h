#pragma once

// Shared by the libmongoc-only benchmark programs (no Qt, no core): the driver set up and a
// client made the way core/MongoConnection makes one, so they measure what the tool would.

#include <mongoc/mongoc.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cstring>

namespace bench {

// Like core/MongoRuntime.cpp: warnings and errors only, minus the farewell FerretDB rejects.
inline void logHandler(mongoc_log_level_t level, const char *domain, const char *message, void *)
{
    if (level > MONGOC_LOG_LEVEL_WARNING || std::strstr(message, "endSessions"))
        return;
    std::fprintf(stderr, "mongoc %s: %s\n", domain, message);
}

// mongoc_init() with the quiet log handler and the allocator settings of
// core/mongo/MongoRuntime.cpp (cursor replies served from the heap, not mapped anew each time),
// so the floor is measured with what the tool has; the caller ends with mongoc_cleanup().
inline void initDriver()
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
    mongoc_init();
    mongoc_log_set_handler(logHandler, nullptr);
    mongoc_log_trace_disable();
}

inline void setDefault(mongoc_uri_t *uri, const char *option, int value)
{
    if (!mongoc_uri_has_option(uri, option))
        mongoc_uri_set_option_as_int32(uri, option, value);
}

// A client for `uriText` with the application's defaults unless the URI sets them: app name,
// 10 s server selection and connect timeouts, 120 s socket timeout, and (when
// `secondaryPreferred`) reads from secondaries. On failure: null, the reason on stderr after
// `program`, and *exitCode 2 for an invalid URI, 1 otherwise.
inline mongoc_client_t *openClient(const char *program, const char *uriText,
                                   bool secondaryPreferred, int *exitCode)
{
    bson_error_t error;
    mongoc_uri_t *uri = mongoc_uri_new_with_error(uriText, &error);
    if (!uri) {
        std::fprintf(stderr, "%s: invalid URI: %s\n", program, error.message);
        *exitCode = 2;
        return nullptr;
    }
    if (!mongoc_uri_get_appname(uri))
        mongoc_uri_set_appname(uri, "outlier-explorer");
    setDefault(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 10000);
    setDefault(uri, MONGOC_URI_CONNECTTIMEOUTMS, 10000);
    setDefault(uri, MONGOC_URI_SOCKETTIMEOUTMS, 120000);
    if (secondaryPreferred && !mongoc_uri_has_option(uri, MONGOC_URI_READPREFERENCE)) {
        mongoc_read_prefs_t *prefs = mongoc_read_prefs_new(MONGOC_READ_SECONDARY_PREFERRED);
        mongoc_uri_set_read_prefs_t(uri, prefs);
        mongoc_read_prefs_destroy(prefs);
    }
    mongoc_client_t *client = mongoc_client_new_from_uri_with_error(uri, &error);
    mongoc_uri_destroy(uri);
    if (!client) {
        std::fprintf(stderr, "%s: cannot create the client: %s\n", program, error.message);
        *exitCode = 1;
        return nullptr;
    }
    mongoc_client_set_error_api(client, MONGOC_ERROR_API_VERSION_2);
    return client;
}

// Reads every document of a cursor: how many, their bytes, and the error it stopped on, if any.
struct Drained
{
    std::uint64_t documents = 0;
    std::uint64_t bytes = 0;
    bool failed = false;
    bson_error_t error{};
};

inline Drained drain(mongoc_cursor_t *cursor)
{
    Drained d;
    const bson_t *doc = nullptr;
    while (mongoc_cursor_next(cursor, &doc)) {
        ++d.documents;
        d.bytes += doc->len;
    }
    d.failed = mongoc_cursor_error(cursor, &d.error);
    return d;
}

// The figures a drain prints, one "name: value" a line (what the benchmark scripts parse).
inline void printDrained(const Drained &d, double seconds, long peakRssKb)
{
    const double t = seconds > 0 ? seconds : 1e-9;
    std::printf("documents: %" PRIu64 "\n", d.documents);
    std::printf("bytes: %" PRIu64 "\n", d.bytes);
    std::printf("seconds: %.3f\n", seconds);
    std::printf("docs_per_s: %.0f\n", double(d.documents) / t);
    std::printf("mb_per_s: %.1f\n", double(d.bytes) / 1e6 / t);
    std::printf("peak_rss_kb: %ld\n", peakRssKb);
}

} // namespace bench
