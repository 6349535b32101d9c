#include "guard/GuardSession.h"

#include "bson/DocumentId.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "guard/GuardValidator.h"
#include "guard/internal/GuardRecord.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerInfo.h"
#include "mongo/ServerProbe.h"
#include "mongo/internal/CollectionOps.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace oe {

namespace {

using bsonraw::view;

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
    bsonraw::appendText(&filter, "name", collection);
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
    const QByteArray optionBytes = bsonraw::subdocumentOf(&options);
    view(optionBytes, &all);
    BsonDocument kept;
    for (const char *key : {"validator", "validationLevel", "validationAction"}) {
        bson_iter_t found;
        if (bson_iter_init_find(&found, &all, key))
            bson_append_iter(kept.get(), key, -1, &found);
    }
    return kept.bytes();
}

// Whether the guard in `validator` is no longer the schema it wrote: someone added a rule inside
// it (`required`, a property), which taking the guard out would take out too. Checked for the
// records that list their rules (version 3: the schema is theirs, byte for byte).
bool guardEdited(const QByteArray &validator, const GuardRecord &record)
{
    if (!record.present || record.version < 3 || record.rules.empty())
        return false;
    const QByteArray found = GuardValidator::guardOf(validator);
    return !found.isEmpty() && found != GuardValidator::schema(record.rules);
}

QString editedGuard(const QString &database, const QString &collection)
{
    return QStringLiteral("the guard's own schema in the validator of %1.%2 was edited since it "
                          "was applied (a rule added inside it): taking the guard out would take "
                          "that rule out too")
        .arg(database, collection);
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

// The $type aliases `types` stands for ("number" is four of them).
QStringList aliasesOf(const QStringList &types)
{
    QStringList out;
    for (const QString &type : types) {
        if (type == QLatin1String("number"))
            out << QStringLiteral("double") << QStringLiteral("int") << QStringLiteral("long")
                << QStringLiteral("decimal");
        else
            out << type;
    }
    return out;
}

// {_id: 1, t: <the types at the rule's path it does not allow>}: computed by the server, so a
// large value is never read to name its type.
QByteArray violationProjection(const GuardRule &rule)
{
    const QString field = QStringLiteral("$") + rule.path;
    const QJsonArray allowed = QJsonArray::fromStringList(aliasesOf(rule.types));
    // The element types of an array value that are not allowed.
    const auto strayElementTypes = [&](const QJsonValue &input) {
        const QJsonObject mapped{
            {QStringLiteral("$map"),
             QJsonObject{{QStringLiteral("input"), input},
                         {QStringLiteral("in"),
                          QJsonObject{{QStringLiteral("$type"), QStringLiteral("$$this")}}}}}};
        return QJsonObject{{QStringLiteral("$setDifference"), QJsonArray{mapped, allowed}}};
    };
    const auto isArray = [](const QJsonValue &v) {
        return QJsonObject{{QStringLiteral("$isArray"), v}};
    };
    QJsonObject types;
    if (rule.elements) {
        types = strayElementTypes(QJsonObject{
            {QStringLiteral("$cond"), QJsonArray{isArray(field), field, QJsonArray{}}}});
    } else if (rule.path.contains(QLatin1Char('.'))) {
        // Through an array on the path, the values come as one array: name their stray types.
        const QString v = QStringLiteral("$$v");
        types = QJsonObject{
            {QStringLiteral("$let"),
             QJsonObject{{QStringLiteral("vars"), QJsonObject{{QStringLiteral("v"), field}}},
                         {QStringLiteral("in"),
                          QJsonObject{{QStringLiteral("$cond"),
                                       QJsonArray{isArray(v), strayElementTypes(v),
                                                  QJsonObject{{QStringLiteral("$type"), v}}}}}}}}};
    } else {
        types = QJsonObject{{QStringLiteral("$type"), field}};
    }
    const QJsonObject projection{{QStringLiteral("_id"), 1}, {QStringLiteral("t"), types}};
    const QJsonObject opts{{QStringLiteral("projection"), projection},
                           {QStringLiteral("limit"), GuardSession::kListedViolations}};
    const auto doc = BsonDocument::fromJson(QJsonDocument(opts).toJson());
    return doc ? doc->bytes() : QByteArray();
}

GuardViolation violationOf(const QByteArray &bytes)
{
    GuardViolation out;
    bson_t doc;
    bson_iter_t it;
    if (!view(bytes, &doc))
        return out;
    if (bson_iter_init_find(&it, &doc, "_id")) {
        BsonDocument id;
        bson_append_iter(id.get(), "_id", -1, &it);
        const QString json =
            DocumentId::documentToRelaxedJson(bson_get_data(id.get()), id.get()->len);
        out.id = json.mid(7, json.size() - 8); // {"_id":VALUE}
    }
    if (bson_iter_init_find(&it, &doc, "t")) {
        if (BSON_ITER_HOLDS_UTF8(&it)) {
            out.types << QString::fromUtf8(bson_iter_utf8(&it, nullptr));
        } else if (bson_iter_t type; BSON_ITER_HOLDS_ARRAY(&it) && bson_iter_recurse(&it, &type)) {
            while (bson_iter_next(&type))
                if (BSON_ITER_HOLDS_UTF8(&type))
                    out.types << QString::fromUtf8(bson_iter_utf8(&type, nullptr));
            if (out.types.isEmpty()) // an array whose elements are all allowed: the array is not
                out.types << QStringLiteral("array");
        }
    }
    return out;
}

// The first documents breaking the plan's rule. A server that cannot compute the projection
// (before 4.4) leaves the list empty and says so: the count stands.
void listViolations(CollectionOps &target, GuardPlan *plan)
{
    const QByteArray own = GuardValidator::schema(std::vector<GuardRule>{plan->rule});
    SourceError error;
    target.find(
        GuardValidator::violations(own), violationProjection(plan->rule),
        QStringLiteral("listing the documents breaking %1").arg(plan->rule.describe()),
        [&](const QByteArray &bytes) {
            plan->violations.push_back(violationOf(bytes));
            return true;
        },
        &error);
    if (error.isError()) {
        plan->violations.clear();
        plan->violationsNote = error.message;
    }
}

// The documents breaking the whole guard, those breaking the plan's own rule, and the first of
// those (their _id and the types that break it): all counted before anything changes.
bool countConflicts(CollectionOps &target, const QByteArray &guard, GuardPlan *plan)
{
    plan->conflicts =
        target.count(GuardValidator::violations(guard),
                     QStringLiteral("counting the documents over the guard"), &plan->error);
    if (plan->error.isError())
        return false;
    if (plan->rules.size() == 1) {
        plan->ruleConflicts = plan->conflicts;
    } else {
        const QByteArray own = GuardValidator::schema(std::vector<GuardRule>{plan->rule});
        plan->ruleConflicts = target.count(
            GuardValidator::violations(own),
            QStringLiteral("counting the documents breaking %1").arg(plan->rule.describe()),
            &plan->error);
        if (plan->error.isError())
            return false;
    }
    if (plan->rule.kind == GuardRule::Kind::BsonType && plan->ruleConflicts > 0)
        listViolations(target, plan);
    return true;
}

// The collection's validation now (into `out->before`) and the guard's record; nullopt with
// `out->error` set when either cannot be read.
std::optional<GuardRecord> readGuard(const MongoConnection &connection, CollectionOps &guards,
                                     const QString &database, const QString &collection,
                                     GuardOutcome *out)
{
    const auto before = readSettings(connection, database, collection, &out->error);
    if (!before)
        return std::nullopt;
    out->before = *before;
    GuardRecord record = GuardRecord::read(guards, collection, before->validator, &out->error);
    if (out->error.isError())
        return std::nullopt;
    return record;
}

} // namespace

GuardPlan GuardSession::plan(const ConnectionSettings &settings, const QString &database,
                             const SplitConfig &layout, const GuardRequest &request)
{
    const SplitConfig full = layout.withDefaults();
    if (const QStringList problems = full.problems(); !problems.isEmpty()) {
        GuardPlan plan;
        plan.database = database;
        plan.layout = full;
        plan.error.kind = SourceError::Kind::Usage;
        plan.error.message = problems.first();
        return plan;
    }
    return planRule(settings, database, full, GuardRule::maxItems(full), request);
}

GuardPlan GuardSession::plan(const ConnectionSettings &settings, const QString &database,
                             const QString &collection, const GuardRule &rule,
                             const GuardRequest &request)
{
    SplitConfig layout;
    layout.collection = collection;
    layout.flagField.clear();
    if (rule.kind == GuardRule::Kind::MaxItems) {
        layout.field = rule.path;
        layout.keep = rule.keep;
        layout.flagField = rule.flagField;
    }
    return planRule(settings, database, layout, rule, request);
}

GuardPlan GuardSession::planRule(const ConnectionSettings &settings, const QString &database,
                                 const SplitConfig &layout, const GuardRule &rule,
                                 const GuardRequest &request)
{
    GuardPlan plan;
    plan.database = database;
    plan.layout = layout;
    plan.rule = rule;
    if (const QString problem = rule.problem(); !problem.isEmpty()) {
        plan.error.kind = SourceError::Kind::Usage;
        plan.error.message = problem;
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
    const QString collection = layout.collection;
    const auto options = validationOptions(*connection, database, collection, &plan.error);
    if (!options)
        return plan;
    plan.current = ValidationSettings::fromOptions(*options);
    CollectionOps guards(*connection, database, guardsCollection());
    const GuardRecord record =
        GuardRecord::read(guards, collection, plan.current.validator, &plan.error);
    if (plan.error.isError())
        return plan;
    if (guardEdited(plan.current.validator, record)) {
        plan.error.kind = SourceError::Kind::Usage;
        plan.error.message = editedGuard(database, layout.collection) +
                             QStringLiteral(", and so would replacing it: put that rule beside "
                                            "the guard (under $and), or remove the guard with "
                                            "--force first");
        return plan;
    }
    plan.guardInPlace = record.present;
    plan.previousOptions = record.present ? record.previousOptions : *options;
    for (const GuardRule &kept : record.rules) {
        if (kept.sameTarget(rule))
            continue;
        plan.rules.push_back(kept);
        plan.keptRules << kept.describe();
    }
    plan.rules.push_back(rule);
    const ValidationSettings own = ownSettings(plan.current, record);
    plan.validatorChanged =
        record.present && !GuardValidator::sameRule(own.validator, record.previous.validator);
    if (own.hasRule())
        plan.previousValidatorJson = GuardValidator::toJson(own.validator);
    const QByteArray guard = GuardValidator::schema(plan.rules);
    CollectionOps target(*connection, database, collection);
    if (!countConflicts(target, guard, &plan))
        return plan;
    plan.decision =
        GuardPolicy::decide(own, request, plan.conflicts,
                            QStringLiteral("%1.%2").arg(database, collection), rule.cure());
    if (plan.decision.block != GuardBlock::None)
        return plan;
    plan.collMod = GuardValidator::collMod(collection, GuardValidator::merged(own.validator, guard),
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
    if (!plan.guardInPlace && !GuardRecord::write(guards, collection, plan.previousOptions,
                                                  plan.decision, plan.rules, &out.error))
        return out;
    if (connection
            ->command(plan.database, plan.collMod,
                      QStringLiteral("applying the guard to %1").arg(collection), &out.error)
            .isEmpty()) {
        if (!plan.guardInPlace) { // nothing changed: no record of a guard that is not there
            SourceError ignored;
            GuardRecord::drop(guards, collection, &ignored);
        }
        return out;
    }
    if (plan.guardInPlace &&
        !GuardRecord::update(guards, collection, plan.decision, plan.rules, &out.error))
        return out;
    const auto after = readSettings(*connection, plan.database, collection, &out.error);
    if (!after)
        return out;
    out.after = *after;
    out.ok = true;
    out.notes = plan.decision.notes;
    out.message =
        QStringLiteral("guard on %1.%2: %3; %4, %5")
            .arg(plan.database, collection, plan.rule.describe(),
                 transition("validationLevel", out.before.levelWord, out.after.levelWord),
                 transition("validationAction", out.before.actionWord, out.after.actionWord));
    return out;
}

GuardOutcome GuardSession::lift(MongoConnection &connection, const QString &database,
                                const QString &collection, bool force)
{
    GuardOutcome out;
    CollectionOps guards(connection, database, guardsCollection());
    const auto record = readGuard(connection, guards, database, collection, &out);
    if (!record)
        return out;
    if (!record->present) {
        out.ok = true;
        return out;
    }
    const ValidationSettings target = ownSettings(out.before, *record);
    const bool edited = guardEdited(out.before.validator, *record);
    out.changedSinceApplied =
        edited || !GuardValidator::sameRule(target.validator, record->previous.validator);
    if (edited) {
        out.currentValidatorJson = GuardValidator::toJson(out.before.validator);
        out.remainingValidatorJson = GuardValidator::toJson(target.validator);
        if (!force) {
            out.error.kind = SourceError::Kind::Usage;
            out.error.message = editedGuard(database, collection) +
                                QStringLiteral("; run again with --force to do that");
            return out;
        }
        out.notes << editedGuard(database, collection) + QStringLiteral(": taken out (--force)");
    } else if (out.changedSinceApplied) {
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
    if (!GuardRecord::drop(guards, collection, &out.error))
        return out;
    const auto after = readSettings(connection, database, collection, &out.error);
    if (!after)
        return out;
    out.after = *after;
    if (out.after.levelWord != record->previous.levelWord ||
        out.after.actionWord != record->previous.actionWord)
        out.notes << QStringLiteral("the level and action changed since the guard was applied "
                                    "are kept: %1")
                         .arg(out.after.describe());
    out.notes << unlistable(record->previous, out.after);
    out.ok = true;
    out.removed = true;
    out.message =
        QStringLiteral("guard removed from %1.%2: %3, %4")
            .arg(database, collection,
                 transition("validationLevel", out.before.levelWord, out.after.levelWord),
                 transition("validationAction", out.before.actionWord, out.after.actionWord));
    return out;
}

GuardOutcome GuardSession::liftSplitRule(MongoConnection &connection, const QString &database,
                                         const QString &collection)
{
    GuardOutcome out;
    CollectionOps guards(connection, database, guardsCollection());
    const auto record = readGuard(connection, guards, database, collection, &out);
    if (!record)
        return out;
    std::vector<GuardRule> kept;
    for (const GuardRule &rule : record->rules)
        if (rule.kind != GuardRule::Kind::MaxItems)
            kept.push_back(rule);
    if (kept.empty() || kept.size() == record->rules.size()) {
        if (kept.empty())
            return lift(connection, database, collection, /*force=*/true);
        out.ok = true; // no split rule: nothing to take out
        return out;
    }
    const ValidationSettings own = ownSettings(out.before, *record);
    GuardDecision decision;
    decision.level = out.before.level;
    decision.action = out.before.action;
    const QByteArray collMod = GuardValidator::collMod(
        collection, GuardValidator::merged(own.validator, GuardValidator::schema(kept)),
        decision.level, decision.action);
    if (collMod.isEmpty()) {
        out.error.kind = SourceError::Kind::Usage;
        out.error.message = QStringLiteral("%1.%2 validates with a level or action this version "
                                           "does not know: the guard is left as it is")
                                .arg(database, collection);
        return out;
    }
    out.collModJson = GuardValidator::toJson(collMod);
    if (connection
            .command(
                database, collMod,
                QStringLiteral("taking the split's rule out of the guard of %1").arg(collection),
                &out.error)
            .isEmpty() ||
        !GuardRecord::update(guards, collection, decision, kept, &out.error))
        return out;
    const auto after = readSettings(connection, database, collection, &out.error);
    if (!after)
        return out;
    out.after = *after;
    for (const GuardRule &rule : kept)
        out.keptRules << rule.describe();
    out.ok = true;
    out.removed = true;
    out.message = QStringLiteral("the split's rule was taken out of the guard on %1.%2; its "
                                 "other rules stay: %3")
                      .arg(database, collection, out.keptRules.join(QStringLiteral("; ")));
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
