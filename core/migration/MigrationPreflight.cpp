#include "migration/MigrationPreflight.h"

#include "mongo/ServerInfo.h"
#include "mongo/ServerProbe.h"
#include "shard/ShardCatalog.h"

#include "migration/JournalEntry.h"
#include "migration/internal/MigrationQueries.h"
#include "mongo/LiveQuery.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/CollectionOps.h"

namespace oe {

using namespace migration;

namespace {

bool sameConfig(const SplitConfig &a, const SplitConfig &b)
{
    return a.field == b.field && a.keep == b.keep && a.pageSize == b.pageSize &&
           a.overflowCollection == b.overflowCollection && a.linkField == b.linkField &&
           a.pageField == b.pageField && a.itemsField == b.itemsField &&
           a.flagField == b.flagField && a.countField == b.countField &&
           a.pagesField == b.pagesField;
}

// A query with the user's filter failed: when the server refused the filter, say so (exit 2).
bool filterFailed(const SplitConfig &config, SourceError *error)
{
    LiveQuery::blameFilter(config.filter, error);
    return false;
}

} // namespace

QString MigrationPreflight::atomicityNote(const ServerInfo &server, const QString &collection)
{
    // The guard protects only where the update is atomic (FerretDB issue #3040 for 1.x). An
    // unreadable FerretDB version gets the warning too, worded as a condition: better a
    // needless caution than a silently lost element.
    switch (server.updateAtomicity()) {
    case ServerInfo::UpdateAtomicity::Atomic:
        return {};
    case ServerInfo::UpdateAtomicity::NotAtomic:
        return QStringLiteral(
                   "the server is FerretDB %1, whose updates are not atomic: an element the "
                   "application appends while a document is trimmed can be lost; split while the "
                   "application is not writing to %2")
            .arg(server.ferretDbVersion, collection);
    case ServerInfo::UpdateAtomicity::Unknown:
        break;
    }
    return QStringLiteral(
               "the server is FerretDB of an unknown version%1; FerretDB 1.x updates are not "
               "atomic: if this is 1.x, an element the application appends while a document is "
               "trimmed can be lost; split while the application is not writing to %2")
        .arg(server.ferretDbVersion.trimmed().isEmpty()
                 ? QString()
                 : QStringLiteral(" ('%1')").arg(server.ferretDbVersion),
             collection);
}

namespace {

// The checks of one preflight, in the order they run; each returns false with `error` set.
class Checks
{
public:
    Checks(MongoConnection &connection, const QString &database, const SplitConfig &config,
           QStringList *notes, SourceError *error)
        : connection(connection), database(database), config(config), notes(notes), error(error),
          source(connection, database, config.collection)
    {
    }

    void serverAtomicity()
    {
        ServerInfo server;
        SourceError probeError;
        if (ServerProbe::probe(connection, database, &server, &probeError))
            if (const QString note = MigrationPreflight::atomicityNote(server, config.collection);
                !note.isEmpty())
                *notes << note;
    }
    bool collectionExists();
    bool fieldPresent(std::int64_t *withField);
    bool fieldIsArray(std::int64_t withField);
    bool fieldOutsideArrays();
    bool earlierRuns(bool *runExists);
    bool overflowIsOurs(bool runExists);
    bool layoutFieldsFree(bool runExists);

private:
    bool usage(const QString &message)
    {
        error->kind = SourceError::Kind::Usage;
        error->source = connection.hosts();
        error->message = message;
        return false;
    }
    bool countWithFilter(const QByteArray &filter, const QString &step, std::int64_t *n)
    {
        *n = source.count(filter, step, error);
        return *n >= 0 || filterFailed(config, error);
    }

    MongoConnection &connection;
    const QString &database;
    const SplitConfig &config;
    QStringList *notes;
    SourceError *error;
    CollectionOps source;
};

bool Checks::collectionExists()
{
    if (source.exists(error))
        return true;
    return error->isError() ? false : usage(QStringLiteral("no collection %1").arg(source.ns()));
}

// The field must exist somewhere (a typo would otherwise "succeed" doing nothing).
bool Checks::fieldPresent(std::int64_t *withField)
{
    const QByteArray present = migration::build([&](bson_t *d) {
        migration::appendUserFilter(d, config.filter);
        const QByteArray f = config.field.toUtf8();
        bson_t cond;
        bson_append_document_begin(d, f.constData(), int(f.size()), &cond);
        BSON_APPEND_BOOL(&cond, "$exists", true);
        bson_append_document_end(d, &cond);
    });
    if (!countWithFilter(present, QStringLiteral("checking the field"), withField))
        return false;
    if (*withField > 0)
        return true;
    return usage(
        QStringLiteral("no document of %1 has a field '%2'%3; nothing written")
            .arg(source.ns(), config.field,
                 config.filter.isEmpty() ? QString() : QStringLiteral(" matching the filter")));
}

// An array wherever it exists; documents where it is not (schema drift) are skipped with a
// note, unless --strict or none has an array.
bool Checks::fieldIsArray(std::int64_t withField)
{
    const QByteArray notArray = migration::build([&](bson_t *d) {
        migration::appendUserFilter(d, config.filter);
        const QByteArray f = config.field.toUtf8();
        bson_t cond, notType;
        bson_append_document_begin(d, f.constData(), int(f.size()), &cond);
        BSON_APPEND_BOOL(&cond, "$exists", true);
        BSON_APPEND_DOCUMENT_BEGIN(&cond, "$not", &notType);
        BSON_APPEND_UTF8(&notType, "$type", "array");
        bson_append_document_end(&cond, &notType);
        bson_append_document_end(d, &cond);
    });
    std::int64_t wrong = 0;
    if (!countWithFilter(notArray, QStringLiteral("checking the field's type"), &wrong))
        return false;
    if (wrong > 0) {
        QByteArray example;
        source.find(
            notArray, projectionId(), QStringLiteral("checking the field's type"),
            [&](const QByteArray &d) {
                example = idValueOf(d);
                return false;
            },
            error);
        const QString what =
            QStringLiteral("field '%1' is not an array in %2 document(s) of %3, e.g. _id %4")
                .arg(config.field)
                .arg(wrong)
                .arg(source.ns(), idText(example));
        if (config.strict || wrong == withField) {
            error->kind = SourceError::Kind::InvalidData;
            error->source = connection.hosts();
            error->message = what +
                             (wrong == withField ? QStringLiteral(" (all that have it)")
                                                 : QStringLiteral(" (--strict)")) +
                             QStringLiteral("; nothing written");
            return false;
        }
        // Schema drift: those documents are left as they are, and the user is told.
        *notes << QStringLiteral("skipped: ") + what + QStringLiteral(", left as they are");
    }
    return true;
}

// Not inside an array of documents: such arrays cannot be split.
bool Checks::fieldOutsideArrays()
{
    const QStringList segments = config.pathSegments();
    for (qsizetype i = 1; i < segments.size(); ++i) {
        const QString prefix = segments.mid(0, i).join(QLatin1Char('.'));
        const QByteArray insideArray = migration::build([&](bson_t *d) {
            migration::appendUserFilter(d, config.filter);
            const QByteArray p = prefix.toUtf8();
            bson_t cond;
            bson_append_document_begin(d, p.constData(), int(p.size()), &cond);
            BSON_APPEND_UTF8(&cond, "$type", "array");
            bson_append_document_end(d, &cond);
        });
        std::int64_t n = 0;
        if (!countWithFilter(insideArray, QStringLiteral("checking the field's path"), &n))
            return false;
        if (n > 0)
            return usage(
                QStringLiteral(
                    "'%1' is an array in %2 document(s): '%3' lies inside arrays of documents, "
                    "which cannot be split; nothing written")
                    .arg(prefix)
                    .arg(n)
                    .arg(config.field));
    }
    return true;
}

// Earlier runs: the same field resumes only with the same configuration.
bool Checks::earlierRuns(bool *runExists)
{
    CollectionOps journal(connection, database, config.journalCollection());
    bool conflict = false;
    const QByteArray runs = migration::build([](bson_t *d) { BSON_APPEND_UTF8(d, "kind", "run"); });
    if (!journal.find(
            runs, {}, QStringLiteral("reading the migration journal"),
            [&](const QByteArray &doc) {
                SplitConfig earlier;
                RunState state = RunState::Applied;
                QString problem;
                if (!JournalEntry::configFromRunDocument(doc, &earlier, &state, &problem)) {
                    if (problem.isEmpty())
                        return true;
                    error->kind = SourceError::Kind::InvalidData;
                    error->message =
                        QStringLiteral("the migration journal %1.%2 is damaged: run '%3': %4")
                            .arg(database, config.journalCollection(),
                                 JournalEntry::runFieldOf(doc), problem);
                    conflict = true;
                    return false;
                }
                const bool active = state != RunState::RolledBack;
                if (earlier.field == config.field) {
                    *runExists = true;
                    if (!sameConfig(earlier, config) && active) {
                        error->kind = SourceError::Kind::Usage;
                        error->message =
                            QStringLiteral("field '%1' was migrated with another configuration "
                                           "(keep %2, page size "
                                           "%3, overflow %4; state %5): roll that back first")
                                .arg(earlier.field)
                                .arg(earlier.keep)
                                .arg(earlier.pageSize)
                                .arg(earlier.overflowCollection, journalText(state));
                        conflict = true;
                        return false;
                    }
                    if (state != RunState::Applied && state != RunState::RolledBack)
                        *notes << QStringLiteral("resuming the interrupted %1 of field '%2'")
                                      .arg(journalText(state), earlier.field);
                } else if (active && (earlier.flagField == config.flagField ||
                                      earlier.overflowCollection == config.overflowCollection)) {
                    error->kind = SourceError::Kind::Usage;
                    error->message =
                        QStringLiteral(
                            "field '%1' is already migrated with the same flag field or overflow "
                            "collection; choose others or roll it back first")
                            .arg(earlier.field);
                    conflict = true;
                    return false;
                }
                return true;
            },
            error))
        return false;
    return !conflict;
}

// The overflow collection may hold only pages, and only ours.
bool Checks::overflowIsOurs(bool runExists)
{
    CollectionOps overflow(connection, database, config.overflowCollection);
    const std::int64_t pages =
        overflow.count(migration::build([](bson_t *) {}),
                       QStringLiteral("checking the overflow collection"), error);
    if (pages < 0)
        return false;
    if (pages > 0) {
        const QByteArray foreign = migration::build([&](bson_t *d) {
            bson_t list, a, b, ea, eb;
            BSON_APPEND_ARRAY_BEGIN(d, "$or", &list);
            BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &a);
            const QByteArray link = config.linkField.toUtf8(), page = config.pageField.toUtf8();
            bson_append_document_begin(&a, link.constData(), int(link.size()), &ea);
            BSON_APPEND_BOOL(&ea, "$exists", false);
            bson_append_document_end(&a, &ea);
            bson_append_document_end(&list, &a);
            BSON_APPEND_DOCUMENT_BEGIN(&list, "1", &b);
            bson_append_document_begin(&b, page.constData(), int(page.size()), &eb);
            BSON_APPEND_BOOL(&eb, "$exists", false);
            bson_append_document_end(&b, &eb);
            bson_append_document_end(&list, &b);
            bson_append_array_end(d, &list);
        });
        const std::int64_t n =
            overflow.count(foreign, QStringLiteral("checking the overflow collection"), error);
        if (n < 0)
            return false;
        if (n > 0 || !runExists)
            return usage(
                n > 0
                    ? QStringLiteral(
                          "the overflow collection %1 holds %2 document(s) that are not overflow "
                          "pages (no '%3' or '%4'); choose another overflow collection "
                          "(--overflow-collection)")
                          .arg(overflow.ns())
                          .arg(n)
                          .arg(config.linkField, config.pageField)
                    : QStringLiteral(
                          "the overflow collection %1 already holds %2 document(s) not written by "
                          "a migration of '%3'; choose another overflow collection "
                          "(--overflow-collection)")
                          .arg(overflow.ns())
                          .arg(pages)
                          .arg(config.field));
    }
    return true;
}

// A new run names its parent's _id under the link field in each page, and writes its flag,
// count and pages fields into the documents. The link field must be none the documents hold
// (an int userId of the application's would share its name with the pages' link to a string
// _id); the others may be there already as the split's own kind of value (an application that
// keeps the count itself, a flag it sets false: the split journals and restores them), but not
// as another kind (a count that is text, a flag that is a date).
bool Checks::layoutFieldsFree(bool runExists)
{
    if (runExists)
        return true; // the run's own fields: written by it
    const SplitConfig layout = config.withDefaults();
    struct Named
    {
        QString field;
        const char *allowed; // the $type the field may hold already; empty: none
        const char *why;
    };
    const Named fields[] = {
        {layout.linkField, "", "--link-field: the pages name their parent's _id under it"},
        {layout.flagField, "bool",
         "--flag-field: the split sets it to true; it holds another type"},
        {layout.countField, "number",
         "--count-field: the split writes the array's length there; it holds another type"},
        {layout.pagesField, "number",
         "--pages-field: the split writes the number of pages there; it holds another type"}};
    for (const Named &named : fields) {
        if (named.field.isEmpty() || named.field == layout.field)
            continue;
        const QByteArray held = migration::build([&](bson_t *d) {
            const QByteArray f = named.field.toUtf8();
            bson_t cond, no;
            bson_append_document_begin(d, f.constData(), int(f.size()), &cond);
            BSON_APPEND_BOOL(&cond, "$exists", true);
            if (*named.allowed) {
                BSON_APPEND_DOCUMENT_BEGIN(&cond, "$not", &no);
                BSON_APPEND_UTF8(&no, "$type", named.allowed);
                bson_append_document_end(&cond, &no);
            }
            bson_append_document_end(d, &cond);
        });
        const std::int64_t n =
            source.count(held, QStringLiteral("checking the layout's field names"), error);
        if (n < 0)
            return false;
        if (n > 0)
            return usage(QStringLiteral("%1 of %2 hold a field '%3' already, and the layout "
                                        "names it (%4): name another, nothing written")
                             .arg(n == 1 ? QStringLiteral("1 document")
                                         : QStringLiteral("%1 documents").arg(n),
                                  source.ns(), named.field, QString::fromLatin1(named.why)));
    }
    return true;
}

} // namespace

bool MigrationPreflight::check(MongoConnection &connection, const QString &database,
                               const SplitConfig &config, QStringList *notes, SourceError *error)
{
    Checks checks(connection, database, config, notes, error);
    checks.serverAtomicity();
    std::int64_t withField = 0;
    bool runExists = false;
    return checks.collectionExists() && checks.fieldPresent(&withField) &&
           checks.fieldIsArray(withField) && checks.fieldOutsideArrays() &&
           checks.earlierRuns(&runExists) && checks.overflowIsOurs(runExists) &&
           checks.layoutFieldsFree(runExists);
}

bool MigrationPreflight::sharding(MongoConnection &connection, const QString &database,
                                  SplitConfig *config, QStringList *notes, SourceError *error,
                                  bool refuseKeyField)
{
    const auto layout = ShardCatalog::load(connection, database, config->collection);
    if (!layout)
        return true;
    config->shardKey = layout->key.paths();
    const QString keyField = layout->key.overlapping(config->field);
    if (refuseKeyField && !keyField.isEmpty()) {
        error->kind = SourceError::Kind::Usage;
        error->source = connection.hosts();
        error->message =
            QStringLiteral("'%1' cannot be split: %2 is sharded on %3, and '%1' %4 the shard key "
                           "field '%5'; a split would change where its documents live; nothing "
                           "written")
                .arg(config->field, layout->ns, layout->key.toText(),
                     keyField == config->field ? QStringLiteral("is")
                     : keyField.startsWith(config->field + QLatin1Char('.'))
                         ? QStringLiteral("holds")
                         : QStringLiteral("lies in"),
                     keyField);
        return false;
    }
    *notes
        << QStringLiteral("%1; every guarded update names the shard key").arg(layout->describe());
    return true;
}

bool MigrationPreflight::checkLayout(MongoConnection &connection, const QString &database,
                                     const SplitConfig &config, SourceError *error)
{
    QStringList notes;
    Checks checks(connection, database, config, &notes, error);
    bool runExists = false;
    return checks.earlierRuns(&runExists) && checks.overflowIsOurs(runExists) &&
           checks.layoutFieldsFree(runExists);
}

} // namespace oe
