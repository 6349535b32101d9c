#include "report/AnatomyReport.h"

#include "bson/internal/BsonRaw.h"
#include "mongo/DocumentFetcher.h"
#include "output/CsvWriter.h"

#include <bson/bson.h>

#include <algorithm>
#include <map>

namespace oe {

namespace {

std::string rawIdOf(const QByteArray &document)
{
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(document.constData()),
                          std::size_t(document.size())) ||
        !bson_iter_init_find(&it, &doc, "_id"))
        return {};
    return bsonraw::toDocumentId(bsonraw::valueOf(&it));
}

} // namespace

std::vector<AnatomyReport::Entry> AnatomyReport::read(const AnalysisResult &result,
                                                      std::size_t count, SourceError *error,
                                                      const std::atomic<bool> *cancel)
{
    std::vector<OutlierDocument> documents = OutlierDocument::group(result.outliers.rows);
    std::stable_sort(
        documents.begin(), documents.end(),
        [](const OutlierDocument &a, const OutlierDocument &b) { return a.bsonSize > b.bsonSize; });
    if (documents.size() > count)
        documents.resize(count);
    std::map<QString, std::string> rawIds; // the rows keep the compact _id beside the JSON
    for (const OutlierRow &r : result.outliers.rows)
        rawIds.emplace(r.id, r.rawId);

    std::map<std::uint64_t, QByteArray> byIndex;
    std::map<std::string, QByteArray> byId;
    const SourceRef &source = result.request.source;
    bool ok;
    if (source.kind == SourceRef::Kind::Dump) {
        std::set<std::uint64_t> indexes;
        for (const OutlierDocument &d : documents)
            indexes.insert(d.docIndex);
        ok = DocumentFetcher::someFromDump(
            source.dumpPath, indexes,
            [&](std::uint64_t index, const QByteArray &doc) { byIndex[index] = doc; }, error,
            cancel);
    } else {
        std::vector<std::string> ids;
        for (const OutlierDocument &d : documents)
            if (const std::string &raw = rawIds[d.id]; !raw.empty())
                ids.push_back(raw);
        ok = DocumentFetcher::someFromCollection(
            source.settings, source.database, source.collection, ids,
            [&](std::uint64_t, const QByteArray &doc) { byId[rawIdOf(doc)] = doc; }, error);
    }
    if (!ok)
        return {};

    std::vector<Entry> entries;
    for (const OutlierDocument &d : documents) {
        Entry e{d, {}, {}};
        const QByteArray *doc = nullptr;
        if (source.kind == SourceRef::Kind::Dump) {
            const auto it = byIndex.find(d.docIndex);
            doc = it == byIndex.end() ? nullptr : &it->second;
        } else {
            const auto it = byId.find(rawIds[d.id]);
            doc = it == byId.end() ? nullptr : &it->second;
        }
        if (doc)
            e.anatomy = SizeAnatomy::of(*doc, &e.error);
        else
            e.error = QStringLiteral("not found (changed since the analysis?)");
        entries.push_back(std::move(e));
    }
    return entries;
}

bool AnatomyReport::csv(const std::vector<Entry> &entries, QIODevice *out)
{
    CsvWriter csv(out,
                  {QStringLiteral("_id"), QStringLiteral("doc_index"), QStringLiteral("bson_size"),
                   QStringLiteral("heaviest_path"), QStringLiteral("heaviest_type"),
                   QStringLiteral("heaviest_bytes"), QStringLiteral("heaviest_share"),
                   QStringLiteral("top_fields"), QStringLiteral("error")});
    for (const Entry &e : entries) {
        const SizeAnatomy &a = e.anatomy;
        QStringList top;
        for (std::size_t i = 0; i < a.fields.size() && i < kTopFields; ++i)
            top << QStringLiteral("%1:%2").arg(a.fields[i].key).arg(a.fields[i].bytes);
        const bool read = e.error.isEmpty();
        csv.addRow({e.document.id, QString::number(e.document.docIndex),
                    QString::number(e.document.bsonSize), read ? a.heaviestPath : QString(),
                    read ? a.heaviest.type : QString(),
                    read ? QString::number(a.heaviest.bytes) : QString(),
                    read ? QString::number(a.share(a.heaviest.bytes), 'g', 6) : QString(),
                    top.join(QLatin1Char('|')), e.error});
    }
    return csv.flush();
}

} // namespace oe
