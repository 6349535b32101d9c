#include "whatif/WhatIfBenchmark.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"
#include "output/CsvWriter.h"
#include "whatif/OverflowAppender.h"
#include "whatif/ScratchDatabase.h"
#include "whatif/internal/WhatIfCalls.h"

#include <QElapsedTimer>

#include <algorithm>
#include <numeric>
#include <string>

namespace oe {

namespace {

struct Timings
{
    std::vector<double> ms;
    double mean() const
    {
        return ms.empty() ? 0 : std::accumulate(ms.begin(), ms.end(), 0.0) / double(ms.size());
    }
    double median() const
    {
        if (ms.empty())
            return 0;
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        return sorted[sorted.size() / 2];
    }
};

void appendElements(bson_t *doc, const char *key, std::int64_t from, std::int64_t to, int bytes)
{
    bson_t list;
    bson_append_array_begin(doc, key, -1, &list);
    for (std::int64_t n = from; n < to; ++n) {
        const QByteArray e = WhatIfBenchmark::element(n, bytes);
        bson_t view;
        bson_init_static(&view, reinterpret_cast<const std::uint8_t *>(e.constData()),
                         std::size_t(e.size()));
        bson_append_document(&list, std::to_string(n - from).c_str(), -1, &view);
    }
    bson_append_array_end(doc, &list);
}

// One size, measured: the unbounded document and the split layout, each in its collections.
class SizeRun
{
public:
    SizeRun(MongoConnection &connection, const QString &database, WhatIfCalls &calls,
            const WhatIfOptions &o, int size, const std::atomic<bool> *cancel)
        : connection(connection), database(database), calls(calls), o(o), size(size),
          cancel(cancel), unbounded(QStringLiteral("unbounded_%1").arg(size)),
          split(QStringLiteral("split_%1").arg(size)),
          pages(QStringLiteral("split_%1_pages").arg(size))
    {
    }

    bool run(WhatIfRow *row, SourceError *error)
    {
        row->elements = size;
        return loadUnbounded(&row->documentBytes, error) && loadSplit(error) &&
               timeUnbounded(error) && timeSplit(error) && finish(row);
    }

private:
    bool cancelled() const { return cancel && cancel->load(); }

    bool loadUnbounded(std::uint64_t *bytes, SourceError *error)
    {
        BsonDocument doc;
        BSON_APPEND_INT64(doc.get(), "_id", 1);
        appendElements(doc.get(), "items", 0, size, o.elementBytes);
        *bytes = std::uint64_t(doc.bytes().size());
        return calls.insert(unbounded, {doc.bytes()}, error);
    }

    bool loadSplit(SourceError *error)
    {
        const std::int64_t kept = std::min(size, o.keep);
        const std::int64_t rest = size - kept;
        const std::int64_t pageCount = (rest + o.pageSize - 1) / o.pageSize;
        BsonDocument parent;
        BSON_APPEND_INT64(parent.get(), "_id", 1);
        appendElements(parent.get(), "items", 0, kept, o.elementBytes);
        if (rest > 0) {
            BSON_APPEND_BOOL(parent.get(), "has_extras", true);
            BSON_APPEND_INT64(parent.get(), "count", size);
            BSON_APPEND_INT64(parent.get(), "pages", pageCount);
        }
        std::vector<QByteArray> pageDocs;
        for (std::int64_t p = 0; p < pageCount; ++p) {
            BsonDocument page;
            BSON_APPEND_INT64(page.get(), "parent_id", 1);
            BSON_APPEND_INT64(page.get(), "page", p);
            const std::int64_t from = kept + p * o.pageSize;
            appendElements(page.get(), "items", from,
                           std::min<std::int64_t>(from + o.pageSize, size), o.elementBytes);
            pageDocs.push_back(page.bytes());
        }
        return calls.insert(split, {parent.bytes()}, error) &&
               calls.createUniqueIndex(pages, QStringLiteral("parent_id"), QStringLiteral("page"),
                                       error) &&
               (pageDocs.empty() || calls.insert(pages, pageDocs, error));
    }

    bool timeUnbounded(SourceError *error)
    {
        BsonDocument filter;
        BSON_APPEND_INT64(filter.get(), "_id", 1);
        for (int i = 0; i < o.ops && !cancelled(); ++i) {
            BsonDocument update;
            bson_t push;
            BSON_APPEND_DOCUMENT_BEGIN(update.get(), "$push", &push);
            const QByteArray e = WhatIfBenchmark::element(size + i, o.elementBytes);
            bson_t view;
            bson_init_static(&view, reinterpret_cast<const std::uint8_t *>(e.constData()),
                             std::size_t(e.size()));
            BSON_APPEND_DOCUMENT(&push, "items", &view);
            bson_append_document_end(update.get(), &push);
            WhatIfCalls::Update r;
            QElapsedTimer clock;
            clock.start();
            if (!calls.updateOne(unbounded, filter.bytes(), update.bytes(), false, &r, error))
                return false;
            plain.ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        }
        return true;
    }

    SplitConfig layout() const
    {
        SplitConfig c;
        c.collection = split;
        c.overflowCollection = pages;
        c.field = QStringLiteral("items");
        c.keep = o.keep;
        c.pageSize = o.pageSize;
        c.countField = QStringLiteral("count");
        c.pagesField = QStringLiteral("pages");
        return c.withDefaults();
    }

    bool timeSplit(SourceError *error)
    {
        OverflowAppender appender(connection, database, layout());
        const QByteArray id("\x12\x01\x00\x00\x00\x00\x00\x00\x00", 9); // int64 1
        for (int i = 0; i < o.ops && !cancelled(); ++i) {
            const QByteArray e = QByteArray(1, '\x03') + // a document
                                 WhatIfBenchmark::element(size + i, o.elementBytes);
            QElapsedTimer clock;
            clock.start();
            OverflowAppender::Path path;
            if (!appender.append(id, e, &path, error))
                return false;
            pattern.ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        }
        legacy = appender.protocol() == OverflowAppender::Protocol::Legacy;
        return true;
    }

    bool finish(WhatIfRow *row)
    {
        row->unboundedMeanMs = plain.mean();
        row->unboundedMedianMs = plain.median();
        row->splitMeanMs = pattern.mean();
        row->splitMedianMs = pattern.median();
        row->legacyWritePath = legacy;
        return !cancelled();
    }

    MongoConnection &connection;
    const QString &database;
    WhatIfCalls &calls;
    const WhatIfOptions &o;
    int size;
    const std::atomic<bool> *cancel;
    QString unbounded, split, pages;
    Timings plain, pattern;
    bool legacy = false;
};

} // namespace

QByteArray WhatIfBenchmark::element(std::int64_t n, int bytes)
{
    // 46 bytes of document around the padding: header, "i" int64, "by" string, "pad" string.
    const QByteArray by =
        QStringLiteral("user-%1").arg(n % 1000000, 6, 10, QLatin1Char('0')).toUtf8();
    const QByteArray pad(std::max(0, bytes - 46), 'x');
    BsonDocument doc;
    BSON_APPEND_INT64(doc.get(), "i", n);
    bson_append_utf8(doc.get(), "by", 2, by.constData(), int(by.size()));
    bson_append_utf8(doc.get(), "pad", 3, pad.constData(), int(pad.size()));
    return doc.bytes();
}

bool WhatIfBenchmark::run(const ConnectionSettings &settings, const WhatIfOptions &options,
                          std::vector<WhatIfRow> *rows, QString *scratch, SourceError *error,
                          const std::atomic<bool> *cancel, const RowCallback &onRow)
{
    const auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return false;
    const auto db = ScratchDatabase::claim(*connection, options.scratchDatabase, error);
    if (!db)
        return false;
    *scratch = db->name();
    WhatIfCalls calls(*connection, db->name());
    bool ok = true;
    for (const int size : options.sizes) {
        WhatIfRow row;
        ok = SizeRun(*connection, db->name(), calls, options, size, cancel).run(&row, error);
        if (!ok)
            break;
        rows->push_back(row);
        if (onRow)
            onRow(row);
    }
    if (cancel && cancel->load() && !error->isError()) { // stopped between sizes or mid-size
        ok = false;
        error->kind = SourceError::Kind::Usage;
        error->message = QStringLiteral("interrupted");
    }
    SourceError dropError;
    if (!db->drop(&dropError) && ok) {
        *error = dropError;
        return false;
    }
    return ok;
}

QByteArray WhatIfBenchmark::csv(const std::vector<WhatIfRow> &rows)
{
    CsvWriter out({QStringLiteral("elements"), QStringLiteral("document_bytes"),
                   QStringLiteral("unbounded_ms_mean"), QStringLiteral("unbounded_ms_median"),
                   QStringLiteral("split_ms_mean"), QStringLiteral("split_ms_median"),
                   QStringLiteral("speedup"), QStringLiteral("write_path")});
    for (const WhatIfRow &r : rows)
        out.addRow({QString::number(r.elements), QString::number(r.documentBytes),
                    QString::number(r.unboundedMeanMs, 'f', 3),
                    QString::number(r.unboundedMedianMs, 'f', 3),
                    QString::number(r.splitMeanMs, 'f', 3),
                    QString::number(r.splitMedianMs, 'f', 3), QString::number(r.speedup(), 'f', 2),
                    r.legacyWritePath ? QStringLiteral("legacy") : QStringLiteral("slot-counter")});
    return out.bytes();
}

} // namespace oe
