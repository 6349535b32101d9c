#include "report/AnatomyReport.h"

#include "bson/internal/BsonRaw.h"
#include "mongo/DocumentFetcher.h"
#include "output/CsvWriter.h"

#include <bson/bson.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace oe {

namespace {

using RawIds = std::map<QString, std::string>; // the rows keep the compact _id beside the JSON

// What a fetched document is found by: its position in a dump, its raw _id in a collection.
std::string keyOf(const SourceRef &source, const OutlierDocument &d, const RawIds &rawIds)
{
    if (source.kind == SourceRef::Kind::Dump)
        return std::to_string(d.docIndex);
    const auto it = rawIds.find(d.id);
    return it == rawIds.end() ? std::string() : it->second;
}

// The documents, in one read of the source, by key.
bool fetch(const SourceRef &source, const std::vector<OutlierDocument> &documents,
           const RawIds &rawIds, std::map<std::string, QByteArray> *out, SourceError *error,
           const std::atomic<bool> *cancel)
{
    if (source.kind == SourceRef::Kind::Dump) {
        std::set<std::uint64_t> indexes;
        for (const OutlierDocument &d : documents)
            indexes.insert(d.docIndex);
        return DocumentFetcher::someFromDump(
            source.dumpPath, indexes,
            [&](std::uint64_t index, const QByteArray &doc) {
                (*out)[std::to_string(index)] = doc;
            },
            error, cancel);
    }
    std::vector<std::string> ids;
    for (const OutlierDocument &d : documents)
        if (std::string raw = keyOf(source, d, rawIds); !raw.empty())
            ids.push_back(std::move(raw));
    return DocumentFetcher::someFromCollection(
        source.settings, source.database, source.collection, ids,
        [&](std::uint64_t, const QByteArray &doc) {
            (*out)[bsonraw::toDocumentId(bsonraw::idOf(doc))] = doc;
        },
        error);
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
    RawIds rawIds;
    for (const OutlierRow &r : result.outliers.rows)
        rawIds.emplace(r.id, r.rawId);

    const SourceRef &source = result.request.source;
    std::map<std::string, QByteArray> fetched;
    if (!fetch(source, documents, rawIds, &fetched, error, cancel))
        return {};
    std::vector<Entry> entries;
    for (const OutlierDocument &d : documents) {
        Entry e{d, {}, {}};
        const std::string key = keyOf(source, d, rawIds);
        const auto it = key.empty() ? fetched.end() : fetched.find(key);
        if (it != fetched.end())
            e.anatomy = SizeAnatomy::of(it->second, &e.error);
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
