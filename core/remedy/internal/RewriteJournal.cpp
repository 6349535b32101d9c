#include "remedy/internal/RewriteJournal.h"

#include "remedy/RemedyRegistry.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <QDateTime>

#include <string>

namespace oe {

namespace {

using bsonraw::appendText;
using bsonraw::textOf;
using bsonraw::view;

// The raw value under `key`.v of `doc`.
QByteArray wrapped(const bson_t *doc, const char *key)
{
    bson_iter_t it, inner;
    if (!bson_iter_init_find(&it, doc, key) || !BSON_ITER_HOLDS_DOCUMENT(&it) ||
        !bson_iter_recurse(&it, &inner) || !bson_iter_find(&inner, "v"))
        return {};
    return bsonraw::valueOf(&inner);
}

void appendWrapped(bson_t *doc, const char *key, const QByteArray &raw)
{
    bson_t inner;
    bson_append_document_begin(doc, key, -1, &inner);
    bsonraw::append(&inner, "v", 1, raw);
    bson_append_document_end(doc, &inner);
}

// An extraction's settings in its run document (the names as given: empty means the default).
void appendExtract(bson_t *run, const RewriteConfig &config)
{
    appendText(run, "side", config.sideCollection);
    appendText(run, "flag", config.flagField);
    bson_append_int64(run, "minBytes", -1, config.minBytes);
    bson_append_int32(run, "excerptChars", -1, config.excerptChars);
    bson_t keys;
    bson_append_array_begin(run, "excerptKeys", -1, &keys);
    for (int i = 0; i < config.excerptKeys.size(); ++i)
        appendText(&keys, std::to_string(i).c_str(), config.excerptKeys[i]);
    bson_append_array_end(run, &keys);
    appendText(run, "bucket", config.bucket);
    bson_append_bool(run, "strings", -1, config.gridfsStrings);
}

void readExtract(const bson_t *run, RewriteConfig *config)
{
    bson_iter_t it, key;
    config->sideCollection = textOf(run, "side");
    config->flagField = textOf(run, "flag");
    if (bson_iter_init_find(&it, run, "minBytes") && BSON_ITER_HOLDS_NUMBER(&it))
        config->minBytes = bson_iter_as_int64(&it);
    if (bson_iter_init_find(&it, run, "excerptChars") && BSON_ITER_HOLDS_NUMBER(&it))
        config->excerptChars = int(bson_iter_as_int64(&it));
    if (bson_iter_init_find(&it, run, "bucket") && BSON_ITER_HOLDS_UTF8(&it))
        config->bucket = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
    config->gridfsStrings = bson_iter_init_find(&it, run, "strings") && BSON_ITER_HOLDS_BOOL(&it) &&
                            bson_iter_bool(&it);
    config->excerptKeys.clear();
    if (bson_iter_init_find(&it, run, "excerptKeys") && BSON_ITER_HOLDS_ARRAY(&it) &&
        bson_iter_recurse(&it, &key))
        while (bson_iter_next(&key))
            if (BSON_ITER_HOLDS_UTF8(&key))
                config->excerptKeys << QString::fromUtf8(bson_iter_utf8(&key, nullptr));
}

// An attribute rewrite's fields in its run document.
void appendFields(bson_t *run, const QStringList &fields)
{
    bson_t list;
    bson_append_array_begin(run, "fields", -1, &list);
    for (int i = 0; i < fields.size(); ++i)
        appendText(&list, std::to_string(i).c_str(), fields[i]);
    bson_append_array_end(run, &list);
}

QStringList fieldsOf(const bson_t *run)
{
    QStringList fields;
    bson_iter_t it, field;
    if (bson_iter_init_find(&it, run, "fields") && BSON_ITER_HOLDS_ARRAY(&it) &&
        bson_iter_recurse(&it, &field))
        while (bson_iter_next(&field))
            if (BSON_ITER_HOLDS_UTF8(&field))
                fields << QString::fromUtf8(bson_iter_utf8(&field, nullptr));
    return fields;
}

QByteArray indexFilter(const QString &run)
{
    BsonDocument filter;
    appendText(filter.get(), "_id", QStringLiteral("index:") + run);
    return filter.bytes();
}

QByteArray runFilter(const QString &run)
{
    BsonDocument filter;
    appendText(filter.get(), "_id", QStringLiteral("run:") + run);
    return filter.bytes();
}

} // namespace

RewriteJournal::RewriteJournal(MongoConnection &connection, const QString &database,
                               const RewriteConfig &config)
    : m_ops(connection, database, config.journalCollection()), m_config(config),
      m_run(config.runId())
{
}

bool RewriteJournal::fits(const QByteArray &id, const QByteArray &before,
                          const QByteArray &after) const
{
    constexpr qsizetype kMaxDocument = 16 * 1024 * 1024;
    constexpr qsizetype kOverhead = 128; // the entry's names, lengths and state
    return id.size() + m_run.toUtf8().size() + before.size() + after.size() + kOverhead <=
           kMaxDocument;
}

QByteArray RewriteJournal::entryFilter(const QByteArray &id) const
{
    BsonDocument filter;
    bson_t key;
    bson_append_document_begin(filter.get(), "_id", -1, &key);
    appendText(&key, "run", m_run);
    bsonraw::append(&key, "doc", 3, id);
    bson_append_document_end(filter.get(), &key);
    return filter.bytes();
}

RewriteJournal::Run RewriteJournal::runOf(const QByteArray &bytes, const RewriteConfig &base)
{
    Run run;
    bson_t doc;
    bson_iter_t it;
    if (!view(bytes, &doc))
        return run;
    run.present = true;
    const QString word = textOf(&doc, "state");
    const auto state = rewriteStateFrom(word);
    if (!state) {
        run.problem = QStringLiteral("the rewrite journal records a state '%1' this version does "
                                     "not know")
                          .arg(word);
        return run;
    }
    run.state = *state;
    if (bson_iter_init_find(&it, &doc, "writer") && BSON_ITER_HOLDS_UTF8(&it))
        run.writer = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
    if (bson_iter_init_find(&it, &doc, "documents") && BSON_ITER_HOLDS_NUMBER(&it))
        run.documents = std::uint64_t(bson_iter_as_int64(&it));
    if (bson_iter_init_find(&it, &doc, "updated") && BSON_ITER_HOLDS_DATE_TIME(&it))
        run.updated = QDateTime::fromMSecsSinceEpoch(bson_iter_date_time(&it), Qt::UTC);
    const Remedy &remedy = RemedyRegistry::of(base.kind);
    run.config = base;
    run.config.targetType = textOf(&doc, "target");
    run.config.keyName = textOf(&doc, "keyName");
    run.config.valueName = textOf(&doc, "valueName");
    readExtract(&doc, &run.config);
    if (remedy.options().testFlag(Remedy::Option::Fields))
        run.config.fields = fieldsOf(&doc);
    if (remedy.options().testFlag(Remedy::Option::NewName))
        run.config.newName = textOf(&doc, "newName");
    return run;
}

std::optional<RewriteConfig> RewriteJournal::baseOf(const QByteArray &bytes,
                                                    const QString &collection)
{
    bson_t doc;
    if (!view(bytes, &doc))
        return std::nullopt;
    const Remedy *remedy = RemedyRegistry::named(textOf(&doc, "kind"));
    if (!remedy)
        return std::nullopt; // a remedy this version does not have
    RewriteConfig config;
    config.collection = collection;
    config.kind = remedy->kind();
    config.path = textOf(&doc, "path");
    return config;
}

RewriteJournal::Run RewriteJournal::readRun(SourceError *error)
{
    Run run;
    m_ops.find(
        runFilter(m_run), {}, QStringLiteral("reading the rewrite journal"),
        [&](const QByteArray &bytes) {
            run = runOf(bytes, m_config);
            return false;
        },
        error);
    return run;
}

bool RewriteJournal::writeRun(RewriteState state, std::optional<std::uint64_t> documents,
                              const std::optional<QString> &writer, SourceError *error)
{
    BsonDocument run;
    appendText(run.get(), "_id", QStringLiteral("run:") + m_run);
    bson_append_int32(run.get(), "version", -1, kVersion);
    bson_append_date_time(run.get(), "updated", -1, QDateTime::currentMSecsSinceEpoch());
    appendText(run.get(), "kind", rewriteKindName(m_config.kind));
    appendText(run.get(), "path", m_config.path);
    appendText(run.get(), "target", m_config.targetType);
    appendText(run.get(), "keyName", m_config.keyName);
    appendText(run.get(), "valueName", m_config.valueName);
    const Remedy &remedy = RemedyRegistry::of(m_config.kind);
    if (remedy.options().testFlag(Remedy::Option::MinBytes))
        appendExtract(run.get(), m_config); // the extraction's and the bucket's names
    if (remedy.options().testFlag(Remedy::Option::Fields))
        appendFields(run.get(), m_config.fields);
    if (remedy.options().testFlag(Remedy::Option::NewName))
        appendText(run.get(), "newName", m_config.newName);
    bson_append_utf8(run.get(), "state", -1, journalWord(state), -1);
    if (writer)
        appendText(run.get(), "writer", *writer);
    if (documents)
        bson_append_int64(run.get(), "documents", -1, std::int64_t(*documents));
    return m_ops.bulk(
        {{CollectionOps::Write::Kind::ReplaceUpsert, runFilter(m_run), run.bytes()}},
        QStringLiteral("recording the rewrite %1").arg(QLatin1String(journalWord(state))), error);
}

bool RewriteJournal::writeIndex(const QString &name, SourceError *error)
{
    BsonDocument doc;
    appendText(doc.get(), "_id", QStringLiteral("index:") + m_run);
    appendText(doc.get(), "name", name);
    return m_ops.bulk(
        {{CollectionOps::Write::Kind::ReplaceUpsert, indexFilter(m_run), doc.bytes()}},
        QStringLiteral("recording the index the rewrite made"), error);
}

std::optional<QString> RewriteJournal::readIndex(SourceError *error)
{
    std::optional<QString> name;
    m_ops.find(
        indexFilter(m_run), {}, QStringLiteral("reading the rewrite journal"),
        [&](const QByteArray &bytes) {
            bson_t doc;
            if (view(bytes, &doc))
                name = textOf(&doc, "name");
            return false;
        },
        error);
    return name;
}

bool RewriteJournal::clearIndex(SourceError *error)
{
    return m_ops.bulk({{CollectionOps::Write::Kind::DeleteMany, indexFilter(m_run), {}}},
                      QStringLiteral("recording the index dropped"), error);
}

bool RewriteJournal::forgetRun(SourceError *error)
{
    return m_ops.bulk({{CollectionOps::Write::Kind::DeleteMany, runFilter(m_run), {}}},
                      QStringLiteral("removing the run that found nothing to rewrite"), error);
}

bool RewriteJournal::clearEntries(SourceError *error)
{
    BsonDocument filter;
    appendText(filter.get(), "_id.run", m_run);
    return m_ops.bulk({{CollectionOps::Write::Kind::DeleteMany, filter.bytes(), {}}},
                      QStringLiteral("clearing the entries of an earlier rewrite"), error);
}

bool RewriteJournal::record(const std::vector<RewriteEntry> &entries, SourceError *error)
{
    std::vector<CollectionOps::Write> writes;
    for (const RewriteEntry &entry : entries) {
        const QByteArray filter = entryFilter(entry.id);
        BsonDocument doc;
        bson_t id;
        view(filter, &id);
        bson_iter_t it;
        bson_iter_init_find(&it, &id, "_id");
        bson_append_iter(doc.get(), "_id", 3, &it);
        appendWrapped(doc.get(), "before", entry.before);
        appendWrapped(doc.get(), "after", entry.after);
        bson_append_utf8(doc.get(), "state", -1, journalWord(entry.state), -1);
        writes.push_back({CollectionOps::Write::Kind::ReplaceUpsert, filter, doc.bytes()});
    }
    return writes.empty() ||
           m_ops.bulk(writes, QStringLiteral("journaling the values it rewrites"), error);
}

bool RewriteJournal::mark(const std::vector<RewriteEntry> &entries, SourceError *error)
{
    std::vector<CollectionOps::Write> writes;
    for (const RewriteEntry &entry : entries) {
        BsonDocument update;
        bson_t set;
        bson_append_document_begin(update.get(), "$set", -1, &set);
        bson_append_utf8(&set, "state", -1, journalWord(entry.state), -1);
        bson_append_document_end(update.get(), &set);
        writes.push_back(
            {CollectionOps::Write::Kind::UpdateOne, entryFilter(entry.id), update.bytes()});
    }
    return writes.empty() ||
           m_ops.bulk(writes, QStringLiteral("recording what the rewrite did"), error);
}

bool RewriteJournal::forEach(const std::vector<RewriteEntryState> &states, std::size_t batch,
                             const std::function<bool(std::vector<RewriteEntry> &)> &visit,
                             SourceError *error)
{
    QByteArray after; // the last _id seen (its BSON document {run, doc}), to page on
    while (true) {
        BsonDocument filter;
        appendText(filter.get(), "_id.run", m_run);
        bson_t in, list;
        bson_append_document_begin(filter.get(), "state", -1, &in);
        bson_append_array_begin(&in, "$in", -1, &list);
        for (std::size_t i = 0; i < states.size(); ++i)
            bson_append_utf8(&list, std::to_string(i).c_str(), -1, journalWord(states[i]), -1);
        bson_append_array_end(&in, &list);
        bson_append_document_end(filter.get(), &in);
        if (!after.isEmpty()) {
            bson_t gt, last;
            view(after, &last);
            bson_append_document_begin(filter.get(), "_id", -1, &gt);
            bson_append_document(&gt, "$gt", -1, &last);
            bson_append_document_end(filter.get(), &gt);
        }
        BsonDocument opts;
        bson_t sort;
        bson_append_document_begin(opts.get(), "sort", -1, &sort);
        bson_append_int32(&sort, "_id", -1, 1);
        bson_append_document_end(opts.get(), &sort);
        bson_append_int64(opts.get(), "limit", -1, std::int64_t(batch));
        std::vector<RewriteEntry> entries;
        qsizetype held = 0;
        bool full = false; // a round's bytes reached kRoundBytes: the rest on the next page
        const bool read = m_ops.find(
            filter.bytes(), opts.bytes(), QStringLiteral("reading the rewrite journal"),
            [&](const QByteArray &bytes) {
                bson_t doc;
                bson_iter_t it, key;
                if (!view(bytes, &doc) || !bson_iter_init_find(&it, &doc, "_id") ||
                    !BSON_ITER_HOLDS_DOCUMENT(&it))
                    return true;
                after = bsonraw::subdocumentOf(&it);
                RewriteEntry entry;
                if (bson_iter_recurse(&it, &key) && bson_iter_find(&key, "doc"))
                    entry.id = bsonraw::valueOf(&key);
                entry.before = wrapped(&doc, "before");
                entry.after = wrapped(&doc, "after");
                entry.state = rewriteEntryStateFrom(textOf(&doc, "state"))
                                  .value_or(RewriteEntryState::Pending);
                entries.push_back(std::move(entry));
                held += entries.back().before.size() + entries.back().after.size();
                full = held >= kRoundBytes;
                return !full;
            },
            error);
        if (!read)
            return false;
        if (entries.empty())
            return true;
        if (!visit(entries))
            return !error->isError();
        if (entries.size() < batch && !full)
            return true;
    }
}

std::uint64_t RewriteJournal::countIn(RewriteEntryState state, SourceError *error)
{
    BsonDocument filter;
    appendText(filter.get(), "_id.run", m_run);
    bson_append_utf8(filter.get(), "state", -1, journalWord(state), -1);
    const std::int64_t n =
        m_ops.count(filter.bytes(), QStringLiteral("counting the rewrite journal"), error);
    return n < 0 ? 0 : std::uint64_t(n);
}

std::uint64_t RewriteJournal::count(SourceError *error)
{
    BsonDocument filter;
    appendText(filter.get(), "_id.run", m_run);
    const std::int64_t n =
        m_ops.count(filter.bytes(), QStringLiteral("counting the rewrite journal"), error);
    return n < 0 ? 0 : std::uint64_t(n);
}

} // namespace oe
