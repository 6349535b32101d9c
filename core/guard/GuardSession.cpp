#include "guard/GuardSession.h"

#include "bson/internal/BsonDocument.h"
#include "guard/GuardValidator.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerInfo.h"
#include "mongo/ServerProbe.h"
#include "mongo/internal/CollectionOps.h"

#include <QDateTime>

namespace oe {

namespace {

bool view(const QByteArray &bytes, bson_t *doc)
{
    return bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

QByteArray subdocument(const bson_iter_t *it)
{
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    bson_iter_document(it, &length, &data);
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
}

// {validator?, validationLevel?, validationAction?} of the collection, from listCollections;
// nullopt (with `error`) when the collection is not there or the server would not say.
std::optional<QByteArray> validationOptions(const MongoConnection &connection,
                                            const QString &database, const QString &collection,
                                            SourceError *error)
{
    BsonDocument cmd;
    bson_append_int32(cmd.get(), "listCollections", -1, 1);
    bson_t filter;
    bson_append_document_begin(cmd.get(), "filter", -1, &filter);
    const QByteArray name = collection.toUtf8();
    bson_append_utf8(&filter, "name", -1, name.constData(), int(name.size()));
    bson_append_document_end(cmd.get(), &filter);
    const QByteArray reply = connection.command(
        database, cmd.bytes(), QStringLiteral("reading the options of %1").arg(collection), error);
    bson_t doc;
    bson_iter_t it, options;
    if (reply.isEmpty() || !view(reply, &doc))
        return std::nullopt;
    if (!bson_iter_init(&it, &doc) ||
        !bson_iter_find_descendant(&it, "cursor.firstBatch.0.options", &options) ||
        !BSON_ITER_HOLDS_DOCUMENT(&options)) {
        *error =
            SourceError::io(connection.redactedUri(),
                            QStringLiteral("%1.%2: no such collection").arg(database, collection));
        return std::nullopt;
    }
    bson_t all;
    const QByteArray optionBytes = subdocument(&options);
    view(optionBytes, &all);
    BsonDocument kept;
    for (const char *key : {"validator", "validationLevel", "validationAction"}) {
        bson_iter_t found;
        if (bson_iter_init_find(&found, &all, key))
            bson_append_iter(kept.get(), key, -1, &found);
    }
    return kept.bytes();
}

QByteArray idFilter(const QString &collection)
{
    BsonDocument filter;
    const QByteArray id = collection.toUtf8();
    bson_append_utf8(filter.get(), "_id", -1, id.constData(), int(id.size()));
    return filter.bytes();
}

// The options our guard replaced, when one of ours is in place (its record's `previous`).
std::optional<QByteArray> recordedPrevious(CollectionOps &guards, const QString &collection,
                                           SourceError *error)
{
    std::optional<QByteArray> previous;
    guards.find(
        idFilter(collection), {}, QStringLiteral("reading the guard of %1").arg(collection),
        [&](const QByteArray &bytes) {
            bson_t doc;
            bson_iter_t it;
            if (view(bytes, &doc) && bson_iter_init_find(&it, &doc, "previous") &&
                BSON_ITER_HOLDS_DOCUMENT(&it))
                previous = subdocument(&it);
            return false;
        },
        error);
    return previous;
}

QByteArray validatorOf(const QByteArray &options)
{
    bson_t doc;
    bson_iter_t it;
    if (view(options, &doc) && bson_iter_init_find(&it, &doc, "validator") &&
        BSON_ITER_HOLDS_DOCUMENT(&it))
        return subdocument(&it);
    return {};
}

// One line for a server that has no validators, else nothing.
QString lacksValidators(MongoConnection &connection, const QString &database)
{
    ServerInfo info;
    SourceError ignored;
    if (ServerProbe::probe(connection, database, &info, &ignored) && info.isFerretDb)
        return QStringLiteral("this server (FerretDB %1) has no $jsonSchema validators: a guard "
                              "cannot be applied here; keep the application's own check")
            .arg(info.ferretDbVersion);
    return {};
}

} // namespace

GuardPlan GuardSession::plan(const ConnectionSettings &settings, const QString &database,
                             const SplitConfig &layout, GuardAction action)
{
    GuardPlan plan;
    plan.database = database;
    plan.layout = layout.withDefaults();
    plan.action = action;
    if (const QStringList problems = plan.layout.problems(); !problems.isEmpty()) {
        plan.error.kind = SourceError::Kind::Usage;
        plan.error.message = problems.first();
        return plan;
    }
    auto connection = MongoConnection::open(settings, &plan.error);
    if (!connection)
        return plan;
    if (const QString missing = lacksValidators(*connection, database); !missing.isEmpty()) {
        plan.error.kind = SourceError::Kind::Usage;
        plan.error.message = missing;
        return plan;
    }
    const auto current =
        validationOptions(*connection, database, plan.layout.collection, &plan.error);
    if (!current)
        return plan;
    CollectionOps guards(*connection, database, guardsCollection());
    const auto recorded = recordedPrevious(guards, plan.layout.collection, &plan.error);
    if (plan.error.isError())
        return plan;
    plan.guardInPlace = recorded.has_value();
    plan.previousOptions = recorded ? *recorded : *current;
    const QByteArray previousValidator = validatorOf(plan.previousOptions);
    plan.previousValidatorJson = GuardValidator::toJson(previousValidator);
    const QByteArray guard = GuardValidator::schema(plan.layout);
    plan.collMod = GuardValidator::collMod(
        plan.layout.collection, GuardValidator::merged(previousValidator, guard), action);
    plan.collModJson = GuardValidator::toJson(plan.collMod);
    CollectionOps target(*connection, database, plan.layout.collection);
    plan.conflicts =
        target.count(GuardValidator::violations(guard),
                     QStringLiteral("counting the documents over the guard"), &plan.error);
    return plan;
}

GuardOutcome GuardSession::apply(const ConnectionSettings &settings, const GuardPlan &plan)
{
    GuardOutcome out;
    out.collModJson = plan.collModJson;
    if (plan.error.isError() || plan.collMod.isEmpty()) {
        out.error = plan.error;
        return out;
    }
    auto connection = MongoConnection::open(settings, &out.error);
    if (!connection)
        return out;
    const QString collection = plan.layout.collection;
    CollectionOps guards(*connection, plan.database, guardsCollection());
    // The options it replaces are kept first: a crash between the two leaves a record that
    // remove() can act on, never a validator nobody can take back.
    if (!plan.guardInPlace) {
        BsonDocument record;
        const QByteArray id = collection.toUtf8();
        bson_append_utf8(record.get(), "_id", -1, id.constData(), int(id.size()));
        bson_t previous;
        view(plan.previousOptions, &previous);
        bson_append_document(record.get(), "previous", -1, &previous);
        const QByteArray field = plan.layout.field.toUtf8();
        bson_append_utf8(record.get(), "field", -1, field.constData(), int(field.size()));
        bson_append_int64(record.get(), "keep", -1, plan.layout.keep);
        bson_append_date_time(record.get(), "appliedAt", -1, QDateTime::currentMSecsSinceEpoch());
        CollectionOps::Write write{CollectionOps::Write::Kind::ReplaceUpsert, idFilter(collection),
                                   record.bytes()};
        if (!guards.bulk({write}, QStringLiteral("recording the guard of %1").arg(collection),
                         &out.error))
            return out;
    }
    if (connection
            ->command(plan.database, plan.collMod,
                      QStringLiteral("applying the guard to %1").arg(collection), &out.error)
            .isEmpty()) {
        if (!plan.guardInPlace) { // nothing changed: no record of a guard that is not there
            SourceError ignored;
            guards.bulk({{CollectionOps::Write::Kind::DeleteMany, idFilter(collection), {}}},
                        QStringLiteral("dropping the guard record"), &ignored);
        }
        return out;
    }
    out.ok = true;
    out.message = QStringLiteral("guard on %1.%2: %3 at most %4 elements (validationAction %5)")
                      .arg(plan.database, collection, plan.layout.field)
                      .arg(plan.layout.keep)
                      .arg(guardActionName(plan.action));
    return out;
}

bool GuardSession::lift(MongoConnection &connection, const QString &database,
                        const QString &collection, bool *lifted, QString *collModJson,
                        SourceError *error)
{
    *lifted = false;
    CollectionOps guards(connection, database, guardsCollection());
    const auto previous = recordedPrevious(guards, collection, error);
    if (error->isError())
        return false;
    if (!previous)
        return true;
    const QByteArray restore = GuardValidator::restore(collection, *previous);
    if (collModJson)
        *collModJson = GuardValidator::toJson(restore);
    if (connection
            .command(database, restore,
                     QStringLiteral("restoring the validator of %1").arg(collection), error)
            .isEmpty())
        return false;
    if (!guards.bulk({{CollectionOps::Write::Kind::DeleteMany, idFilter(collection), {}}},
                     QStringLiteral("dropping the guard record of %1").arg(collection), error))
        return false;
    *lifted = true;
    return true;
}

GuardOutcome GuardSession::remove(const ConnectionSettings &settings, const QString &database,
                                  const QString &collection)
{
    GuardOutcome out;
    auto connection = MongoConnection::open(settings, &out.error);
    if (!connection)
        return out;
    bool lifted = false;
    if (!lift(*connection, database, collection, &lifted, &out.collModJson, &out.error))
        return out;
    if (!lifted) {
        out.error.kind = SourceError::Kind::Usage;
        out.error.message =
            QStringLiteral("%1.%2 has no guard of Outlier Explorer").arg(database, collection);
        return out;
    }
    out.ok = true;
    out.message = QStringLiteral("guard removed from %1.%2: its previous validator, level and "
                                 "action are back")
                      .arg(database, collection);
    return out;
}

} // namespace oe
