#include "guard/internal/GuardRecord.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "guard/GuardValidator.h"
#include "mongo/internal/CollectionOps.h"

#include <QDateTime>

#include <string>

namespace oe {

namespace {

using bsonraw::textOf;
using bsonraw::view;

std::int64_t integerOf(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    return bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_NUMBER(&it)
               ? bson_iter_as_int64(&it)
               : 0;
}

QByteArray idFilter(const QString &collection)
{
    BsonDocument filter;
    bsonraw::appendText(filter.get(), "_id", collection);
    return filter.bytes();
}

QByteArray appliedDocument(const GuardDecision &decision)
{
    BsonDocument applied;
    bsonraw::appendText(applied.get(), "validationLevel", validationLevelName(decision.level));
    bsonraw::appendText(applied.get(), "validationAction", validationActionName(decision.action));
    return applied.bytes();
}

void appendRule(bson_t *list, std::size_t index, const GuardRule &rule)
{
    const std::string key = std::to_string(index);
    bson_t doc;
    bson_append_document_begin(list, key.c_str(), -1, &doc);
    const bool split = rule.kind == GuardRule::Kind::MaxItems;
    bsonraw::appendText(&doc, "kind",
                        split ? QStringLiteral("maxItems") : QStringLiteral("bsonType"));
    bsonraw::appendText(&doc, "path", rule.path);
    if (split) {
        bson_append_int64(&doc, "keep", -1, rule.keep);
        bsonraw::appendText(&doc, "flag", rule.flagField);
    } else {
        bson_t types;
        bson_append_array_begin(&doc, "types", -1, &types);
        for (int i = 0; i < rule.types.size(); ++i)
            bsonraw::appendText(&types, std::to_string(i).c_str(), rule.types.at(i));
        bson_append_array_end(&doc, &types);
        bson_append_bool(&doc, "elements", -1, rule.elements);
    }
    bson_append_document_end(list, &doc);
}

void appendRules(bson_t *doc, const std::vector<GuardRule> &rules)
{
    bson_t list;
    bson_append_array_begin(doc, "rules", -1, &list);
    for (std::size_t i = 0; i < rules.size(); ++i)
        appendRule(&list, i, rules[i]);
    bson_append_array_end(doc, &list);
}

GuardRule ruleOf(const bson_t *doc)
{
    GuardRule rule;
    rule.path = textOf(doc, "path");
    if (textOf(doc, "kind") == QLatin1String("bsonType")) {
        rule.kind = GuardRule::Kind::BsonType;
        bson_iter_t it, type;
        if (bson_iter_init_find(&it, doc, "types") && BSON_ITER_HOLDS_ARRAY(&it) &&
            bson_iter_recurse(&it, &type)) {
            while (bson_iter_next(&type))
                if (BSON_ITER_HOLDS_UTF8(&type))
                    rule.types << QString::fromUtf8(bson_iter_utf8(&type, nullptr));
        }
        rule.elements = bson_iter_init_find(&it, doc, "elements") && bson_iter_as_bool(&it);
        return rule;
    }
    rule.keep = integerOf(doc, "keep");
    rule.flagField = textOf(doc, "flag");
    return rule;
}

std::vector<GuardRule> rulesOf(const bson_t *record, const QByteArray &validator)
{
    std::vector<GuardRule> rules;
    bson_iter_t it, item;
    if (bson_iter_init_find(&it, record, "rules") && BSON_ITER_HOLDS_ARRAY(&it) &&
        bson_iter_recurse(&it, &item)) {
        while (bson_iter_next(&item)) {
            bson_t doc;
            const QByteArray bytes =
                BSON_ITER_HOLDS_DOCUMENT(&item) ? bsonraw::subdocumentOf(&item) : QByteArray();
            if (!bytes.isEmpty() && view(bytes, &doc))
                rules.push_back(ruleOf(&doc));
        }
        return rules;
    }
    // Versions 1 and 2: the split's rule alone.
    GuardRule split;
    split.path = textOf(record, "field");
    split.keep = integerOf(record, "keep");
    split.flagField = GuardValidator::flagOf(validator);
    if (!split.path.isEmpty())
        rules.push_back(split);
    return rules;
}

} // namespace

GuardRecord GuardRecord::read(CollectionOps &guards, const QString &collection,
                              const QByteArray &validator, SourceError *error)
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
            record.version = int(integerOf(&doc, "version"));
            record.previousOptions = bsonraw::subdocumentOf(&it);
            record.previous = ValidationSettings::fromOptions(record.previousOptions);
            const QByteArray appliedBytes =
                bson_iter_init_find(&it, &doc, "applied") && BSON_ITER_HOLDS_DOCUMENT(&it)
                    ? bsonraw::subdocumentOf(&it)
                    : QByteArray();
            if (!appliedBytes.isEmpty() && view(appliedBytes, &applied)) {
                record.appliedLevel = textOf(&applied, "validationLevel");
                record.appliedAction = textOf(&applied, "validationAction");
            }
            record.rules = rulesOf(&doc, validator);
            return false;
        },
        error);
    return record;
}

bool GuardRecord::write(CollectionOps &guards, const QString &collection,
                        const QByteArray &previousOptions, const GuardDecision &decision,
                        const std::vector<GuardRule> &rules, SourceError *error)
{
    BsonDocument record;
    bsonraw::appendText(record.get(), "_id", collection);
    bson_append_int32(record.get(), "version", -1, kVersion);
    bson_t previous, applied;
    view(previousOptions, &previous);
    bson_append_document(record.get(), "previous", -1, &previous);
    const QByteArray appliedBytes = appliedDocument(decision);
    view(appliedBytes, &applied);
    bson_append_document(record.get(), "applied", -1, &applied);
    appendRules(record.get(), rules);
    bson_append_date_time(record.get(), "appliedAt", -1, QDateTime::currentMSecsSinceEpoch());
    return guards.bulk(
        {{CollectionOps::Write::Kind::ReplaceUpsert, idFilter(collection), record.bytes()}},
        QStringLiteral("recording the guard of %1").arg(collection), error);
}

bool GuardRecord::update(CollectionOps &guards, const QString &collection,
                         const GuardDecision &decision, const std::vector<GuardRule> &rules,
                         SourceError *error)
{
    BsonDocument update;
    bson_t set, unset, applied;
    bson_append_document_begin(update.get(), "$set", -1, &set);
    const QByteArray appliedBytes = appliedDocument(decision);
    view(appliedBytes, &applied);
    bson_append_document(&set, "applied", -1, &applied);
    bson_append_int32(&set, "version", -1, kVersion);
    appendRules(&set, rules);
    bson_append_document_end(update.get(), &set);
    // A version 2 record's split rule now lives in `rules`.
    bson_append_document_begin(update.get(), "$unset", -1, &unset);
    bson_append_utf8(&unset, "field", -1, "", 0);
    bson_append_utf8(&unset, "keep", -1, "", 0);
    bson_append_document_end(update.get(), &unset);
    return guards.bulk(
        {{CollectionOps::Write::Kind::UpdateOne, idFilter(collection), update.bytes()}},
        QStringLiteral("recording the guard of %1").arg(collection), error);
}

bool GuardRecord::drop(CollectionOps &guards, const QString &collection, SourceError *error)
{
    return guards.bulk({{CollectionOps::Write::Kind::DeleteMany, idFilter(collection), {}}},
                       QStringLiteral("dropping the guard record of %1").arg(collection), error);
}

} // namespace oe
