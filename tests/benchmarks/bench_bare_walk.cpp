// bench_bare_walk: the floor for `outlier-explorer-cli analyze`.
//
// Reads a mongodump-style .bson file (concatenated BSON documents) with libbson's
// bson_reader and walks every element of every document, recursing into embedded documents
// and arrays. It does nothing else: no field paths, no statistics, no allocation per element.
// Whatever `analyze` spends beyond this is the cost of the analysis itself.
//
// Usage: bench_bare_walk FILE.bson
// Prints (one "key: value" per line, for run-analyze-benchmark.sh to parse):
//   documents, elements, bytes, seconds, peak_rss_kb, checksum
// Exit status: 0 on success, 1 on a read or structure error, 2 on bad usage.

#include <bson/bson.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace {

struct WalkTotals
{
    std::uint64_t elements = 0;
    // Folds every element's type (which the walk reads anyway, to know where to recurse), so
    // the walk has an observable result the compiler cannot drop.
    std::uint64_t checksum = 0;
    bool corrupt = false;
};

void walk(bson_iter_t *iter, WalkTotals &totals)
{
    while (bson_iter_next(iter)) {
        ++totals.elements;
        const bson_type_t type = bson_iter_type(iter);
        totals.checksum = totals.checksum * 31u + static_cast<std::uint64_t>(type);
        if (type == BSON_TYPE_DOCUMENT || type == BSON_TYPE_ARRAY) {
            bson_iter_t child;
            if (!bson_iter_recurse(iter, &child)) {
                totals.corrupt = true;
                return;
            }
            walk(&child, totals);
            if (totals.corrupt)
                return;
        }
    }
    // bson_iter_next() also returns false on a malformed element; err_off tells it apart.
    if (iter->err_off != 0)
        totals.corrupt = true;
}

long peakRssKb()
{
    struct rusage usage
    {
    };
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    return usage.ru_maxrss; // kilobytes on Linux
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE.bson\n", argc > 0 ? argv[0] : "bench_bare_walk");
        return 2;
    }
    const char *path = argv[1];
    const auto start = std::chrono::steady_clock::now();

    bson_error_t error;
    bson_reader_t *reader = bson_reader_new_from_file(path, &error);
    if (!reader) {
        std::fprintf(stderr, "bench_bare_walk: cannot open %s: %s\n", path, error.message);
        return 1;
    }

    std::uint64_t documents = 0;
    WalkTotals totals;
    bool eof = false;
    while (const bson_t *doc = bson_reader_read(reader, &eof)) {
        ++documents;
        bson_iter_t iter;
        if (!bson_iter_init(&iter, doc)) {
            totals.corrupt = true;
            break;
        }
        walk(&iter, totals);
        if (totals.corrupt)
            break;
    }
    const auto bytes = static_cast<std::uint64_t>(bson_reader_tell(reader));
    bson_reader_destroy(reader);

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (totals.corrupt || !eof) {
        std::fprintf(stderr,
                     "bench_bare_walk: %s: malformed BSON in or after document %" PRIu64
                     " (byte offset %" PRIu64 ")\n",
                     path, documents, bytes);
        return 1;
    }
    // bson_reader reports end of file even when a truncated document is left over.
    struct stat info
    {
    };
    if (stat(path, &info) == 0 && std::uint64_t(info.st_size) != bytes) {
        std::fprintf(stderr,
                     "bench_bare_walk: %s: %" PRIu64 " trailing byte(s) after document %" PRIu64
                     " are not a whole BSON document\n",
                     path, std::uint64_t(info.st_size) - bytes, documents);
        return 1;
    }

    std::printf("documents: %" PRIu64 "\n", documents);
    std::printf("elements: %" PRIu64 "\n", totals.elements);
    std::printf("bytes: %" PRIu64 "\n", bytes);
    std::printf("seconds: %.3f\n", seconds);
    std::printf("peak_rss_kb: %ld\n", peakRssKb());
    std::printf("checksum: %016" PRIx64 "\n", totals.checksum);
    return 0;
}
