#include "guard/GuardSession.h"

#include "bson/internal/BsonDocument.h"
#include "guard/GuardValidator.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerInfo.h"
#include "mongo/ServerProbe.h"
#include "mongo/internal/CollectionOps.h"

#include <QDateTime>

#include <optional>

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

void appendString(bson_t *doc, const char *key, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    bson_append_utf8(doc, key, -1, utf8.constData(), int(utf8.size()));
}

QString textOf(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    return bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_UTF8(&it)
               ? QString::fromUtf8(bson_iter_utf8(&it, nullptr))
               : QString();
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
    appendString(&filter, "name", collection);
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
    appendString(filter.get(), "_id", collection);
    return filter.bytes();
}

// A guard of ours, as its record in outlier_explorer_guards keeps it: the options it replaced
// and (from version 2 on) the level and action it set.
struct GuardRecord
{
    bool present = false;
    QByteArray previousOptions;
    ValidationSettings previous;
    QString appliedLevel; // empty in a version 1 record
    QString appliedAction;
};

GuardRecord readRecord(CollectionOps &guards, const QString &collection, SourceError *error)
{
    GuardRecord record;
    guards.find(
        idFilter(collection), {}, QStringLiteral("reading the guard of %1").arg(collection),
        [&](const QByteArray &bytes) {
            bson_t doc, applied;
            bson_iter_t it;
            if (!view(bytes, &doc) || !bson_iter_init_find(&it, &doc, "previous") ||
                !BSON_ITER_HOLDS_DOCUMENT(&it))
                return false;
            record.present = true;
            record.previousOptions = subdocument(&it);
            record.previous = ValidationSettings::fromOptions(record.previousOptions);
            const QByteArray appliedBytes =
                bson_iter_init_find(&it, &doc, "applied") && BSON_ITER_HOLDS_DOCUMENT(&it)
                    ? subdocument(&it)
                    : QByteArray();
            if (!appliedBytes.isEmpty() && view(appliedBytes, &applied)) {
                record.appliedLevel = textOf(&applied, "validationLevel");
                record.appliedAction = textOf(&applied, "validationAction");
            }
            return false;
        },
        error);
    return record;
}

QByteArray appliedDocument(const GuardDecision &decision)
{
    BsonDocument applied;
    appendString(applied.get(), "validationLevel", validationLevelName(decision.level));
    appendString(applied.get(), "validationAction", validationActionName(decision.action));
    return applied.bytes();
}

bool writeRecord(CollectionOps &guards, const GuardPlan &plan, SourceError *error)
{
    const QString collection = plan.layout.collection;
    BsonDocument record;
    appendString(record.get(), "_id", collection);
    bson_append_int32(record.get(), "version", -1, GuardSession::kRecordVersion);
    bson_t previous, applied;
    view(plan.previousOptions, &previous);
    bson_append_document(record.get(), "previous", -1, &previous);
    const QByteArray appliedBytes = appliedDocument(plan.decision);
    view(appliedBytes, &applied);
    bson_append_document(record.get(), "applied", -1, &applied);
    appendString(record.get(), "field", plan.layout.field);
    bson_append_int64(record.get(), "keep", -1, plan.layout.keep);
    bson_append_date_time(record.get(), "appliedAt", -1, QDateTime::currentMSecsSinceEpoch());
    return guards.bulk(
        {{CollectionOps::Write::Kind::ReplaceUpsert, idFilter(collection), record.bytes()}},
        QStringLiteral("recording the guard of %1").arg(collection), error);
}

// A guard replaced by a newer one keeps its record's `previous`; its `applied` follows.
bool updateApplied(CollectionOps &guards, const GuardPlan &plan, SourceError *error)
{
    BsonDocument update;
    bson_t set, applied;
    bson_append_document_begin(update.get(), "$set", -1, &set);
    const QByteArray appliedBytes = appliedDocument(plan.decision);
    view(appliedBytes, &applied);
    bson_append_document(&set, "applied", -1, &applied);
    bson_append_int32(&set, "version", -1, GuardSession::kRecordVersion);
    bson_append_int64(&set, "keep", -1, plan.layout.keep);
    bson_append_document_end(update.get(), &set);
    return guards.bulk(
        {{CollectionOps::Write::Kind::UpdateOne, idFilter(plan.layout.collection), update.bytes()}},
        QStringLiteral("recording the guard of %1").arg(plan.layout.collection), error);
}

// The collection's own validation, without the guard: the rules there now less the guard's
// part (so a rule added since is kept), and the level and action it had before the guard,
// unless someone changed them since (then theirs).
ValidationSettings ownSettings(const ValidationSettings &current, const GuardRecord &record)
{
    if (!record.present)
        return current;
    ValidationSettings own = record.previous;
    own.validator = GuardValidator::without(current.validator);
    if (GuardValidator::sameRule(own.validator, record.previous.validator))
        own.validator = record.previous.validator;
    own.validatorListed = record.previous.validatorListed || own.hasRule();
    const auto keepTheirs = [](const QString &applied, const QString &now) {
        return !applied.isEmpty() && applied != now;
    };
    if (keepTheirs(record.appliedLevel, current.levelWord)) {
        own.level = current.level;
        own.levelWord = current.levelWord;
        own.levelListed = current.levelListed;
    }
    if (keepTheirs(record.appliedAction, current.actionWord)) {
        own.action = current.action;
        own.actionWord = current.actionWord;
        own.actionListed = current.actionListed;
    }
    return own;
}

std::optional<ValidationSettings> readSettings(const MongoConnection &connection,
                                               const QString &database, const QString &collection,
                                               SourceError *error)
{
    const auto options = validationOptions(connection, database, collection, error);
    if (!options)
        return std::nullopt;
    return ValidationSettings::fromOptions(*options);
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

QString transition(const char *what, const QString &before, const QString &after)
{
    return before == after ? QStringLiteral("%1 %2 (as it was)").arg(QLatin1String(what), after)
                           : QStringLiteral("%1 %2 -> %3").arg(QLatin1String(what), before, after);
}

// What collMod could not give back as it was: options it can set but not unset.
QStringList unlistable(const ValidationSettings &previous, const ValidationSettings &after)
{
    QStringList listed;
    if (!previous.validatorListed && after.validatorListed)
        listed << QStringLiteral("validator {}");
    if (!previous.levelListed && after.levelListed)
        listed << QStringLiteral("validationLevel \"%1\"").arg(after.levelWord);
    if (!previous.actionListed && after.actionListed)
        listed << QStringLiteral("validationAction \"%1\"").arg(after.actionWord);
    if (listed.isEmpty())
        return {};
    return {QStringLiteral("listCollections now lists %1, which the collection had left to the "
                           "server's defaults: MongoDB's collMod can set an option but not unset "
                           "it, so the options are equal in effect, not byte for byte")
                .arg(listed.join(QStringLiteral(", ")))};
}

} // namespace

GuardPlan GuardSession::plan(const ConnectionSettings &settings, const QString &database,
                             const SplitConfig &layout, const GuardRequest &request)
{
    GuardPlan plan;
    plan.database = database;
    plan.layout = layout.withDefaults();
    plan.request = request;
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
    const auto options =
        validationOptions(*connection, database, plan.layout.collection, &plan.error);
    if (!options)
        return plan;
    plan.current = ValidationSettings::fromOptions(*options);
    CollectionOps guards(*connection, database, guardsCollection());
    const GuardRecord record = readRecord(guards, plan.layout.collection, &plan.error);
    if (plan.error.isError())
        return plan;
    plan.guardInPlace = record.present;
    plan.previousOptions = record.present ? record.previousOptions : *options;
    const ValidationSettings own = ownSettings(plan.current, record);
    plan.validatorChanged =
        record.present && !GuardValidator::sameRule(own.validator, record.previous.validator);
    if (own.hasRule())
        plan.previousValidatorJson = GuardValidator::toJson(own.validator);
    const QByteArray guard = GuardValidator::schema(plan.layout);
    CollectionOps target(*connection, database, plan.layout.collection);
    plan.conflicts =
        target.count(GuardValidator::violations(guard),
                     QStringLiteral("counting the documents over the guard"), &plan.error);
    if (plan.error.isError())
        return plan;
    plan.decision =
        GuardPolicy::decide(own, request, plan.conflicts,
                            QStringLiteral("%1.%2").arg(database, plan.layout.collection));
    if (plan.decision.block != GuardBlock::None)
        return plan;
    plan.collMod = GuardValidator::collMod(plan.layout.collection,
                                           GuardValidator::merged(own.validator, guard),
                                           plan.decision.level, plan.decision.action);
    plan.collModJson = GuardValidator::toJson(plan.collMod);
    return plan;
}

GuardOutcome GuardSession::apply(const ConnectionSettings &settings, const GuardPlan &plan)
{
    GuardOutcome out;
    out.collModJson = plan.collModJson;
    if (!plan.canApply()) {
        out.error = plan.error;
        if (!out.error.isError()) {
            out.error.kind = SourceError::Kind::Usage;
            out.error.message = plan.decision.blockMessage;
        }
        return out;
    }
    auto connection = MongoConnection::open(settings, &out.error);
    if (!connection)
        return out;
    const QString collection = plan.layout.collection;
    const auto before = readSettings(*connection, plan.database, collection, &out.error);
    if (!before)
        return out;
    out.before = *before;
    CollectionOps guards(*connection, plan.database, guardsCollection());
    // The options it replaces are kept first: a crash between the two leaves a record that
    // remove() can act on, never a validator nobody can take back.
    if (!plan.guardInPlace && !writeRecord(guards, plan, &out.error))
        return out;
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
    if (plan.guardInPlace && !updateApplied(guards, plan, &out.error))
        return out;
    const auto after = readSettings(*connection, plan.database, collection, &out.error);
    if (!after)
        return out;
    out.after = *after;
    out.ok = true;
    out.notes = plan.decision.notes;
    out.message =
        QStringLiteral("guard on %1.%2: %3 at most %4 elements; %5, %6")
            .arg(plan.database, collection, plan.layout.field)
            .arg(plan.layout.keep)
            .arg(transition("validationLevel", out.before.levelWord, out.after.levelWord),
                 transition("validationAction", out.before.actionWord, out.after.actionWord));
    return out;
}

GuardOutcome GuardSession::lift(MongoConnection &connection, const QString &database,
                                const QString &collection, bool force)
{
    GuardOutcome out;
    CollectionOps guards(connection, database, guardsCollection());
    const GuardRecord record = readRecord(guards, collection, &out.error);
    if (out.error.isError())
        return out;
    if (!record.present) {
        out.ok = true;
        return out;
    }
    const auto before = readSettings(connection, database, collection, &out.error);
    if (!before)
        return out;
    out.before = *before;
    const ValidationSettings target = ownSettings(out.before, record);
    out.changedSinceApplied =
        !GuardValidator::sameRule(target.validator, record.previous.validator);
    if (out.changedSinceApplied) {
        out.currentValidatorJson = GuardValidator::toJson(out.before.validator);
        out.remainingValidatorJson = GuardValidator::toJson(target.validator);
        if (!force) {
            out.error.kind = SourceError::Kind::Usage;
            out.error.message =
                QStringLiteral("the validator of %1.%2 changed since the guard was applied: "
                               "removing it would take out only the guard's part and keep the "
                               "rest (shown above); run again with --force to do that")
                    .arg(database, collection);
            return out;
        }
        out.notes << QStringLiteral("the validator changed since the guard was applied: only "
                                    "the guard's part was taken out, the rest is kept");
    }
    const QByteArray restore = GuardValidator::restore(collection, target);
    out.collModJson = GuardValidator::toJson(restore);
    if (connection
            .command(database, restore,
                     QStringLiteral("restoring the validator of %1").arg(collection), &out.error)
            .isEmpty())
        return out;
    if (!guards.bulk({{CollectionOps::Write::Kind::DeleteMany, idFilter(collection), {}}},
                     QStringLiteral("dropping the guard record of %1").arg(collection), &out.error))
        return out;
    const auto after = readSettings(connection, database, collection, &out.error);
    if (!after)
        return out;
    out.after = *after;
    if (out.after.levelWord != record.previous.levelWord ||
        out.after.actionWord != record.previous.actionWord)
        out.notes << QStringLiteral("the level and action changed since the guard was applied "
                                    "are kept: %1")
                         .arg(out.after.describe());
    out.notes << unlistable(record.previous, out.after);
    out.ok = true;
    out.removed = true;
    out.message =
        QStringLiteral("guard removed from %1.%2: %3, %4")
            .arg(database, collection,
                 transition("validationLevel", out.before.levelWord, out.after.levelWord),
                 transition("validationAction", out.before.actionWord, out.after.actionWord));
    return out;
}

GuardOutcome GuardSession::remove(const ConnectionSettings &settings, const QString &database,
                                  const QString &collection, bool force)
{
    GuardOutcome out;
    auto connection = MongoConnection::open(settings, &out.error);
    if (!connection)
        return out;
    out = lift(*connection, database, collection, force);
    if (out.ok && !out.removed) {
        out.ok = false;
        out.error.kind = SourceError::Kind::Usage;
        out.error.message =
            QStringLiteral("%1.%2 has no guard of Outlier Explorer").arg(database, collection);
    }
    return out;
}

} // namespace oe
