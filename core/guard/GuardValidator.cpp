#include "guard/GuardValidator.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <string>
#include <vector>

namespace oe {

namespace {

bool view(const QByteArray &bytes, bson_t *doc)
{
    return bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

// Sets `leaf` at `segments` inside a `$jsonSchema` object: each step down is `properties`.
void place(QJsonObject &schema, const QStringList &segments, const QJsonObject &leaf)
{
    QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    const QString head = segments.first();
    QJsonObject child = properties.value(head).toObject();
    if (segments.size() == 1) {
        for (auto it = leaf.begin(); it != leaf.end(); ++it)
            child.insert(it.key(), it.value());
    } else {
        place(child, segments.mid(1), leaf);
    }
    properties.insert(head, child);
    schema.insert(QStringLiteral("properties"), properties);
}

// Sets `leaf` at `segments` as a dotted path reaches it: through a sub-document (`properties`)
// or through an array of them (`items`, then `properties`), whichever each document holds.
void placeThrough(QJsonObject &schema, const QStringList &segments, const QJsonObject &leaf)
{
    if (segments.size() == 1) {
        place(schema, segments, leaf);
        return;
    }
    QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    const QString head = segments.first();
    QJsonObject child = properties.value(head).toObject();
    placeThrough(child, segments.mid(1), leaf);
    QJsonObject items = child.value(QStringLiteral("items")).toObject();
    placeThrough(items, segments.mid(1), leaf);
    child.insert(QStringLiteral("items"), items);
    properties.insert(head, child);
    schema.insert(QStringLiteral("properties"), properties);
}

} // namespace

QByteArray GuardValidator::schema(const SplitConfig &layout)
{
    return schema(std::vector<GuardRule>{GuardRule::maxItems(layout)});
}

QByteArray GuardValidator::schema(const std::vector<GuardRule> &rules)
{
    QJsonObject schema{{QStringLiteral("bsonType"), QStringLiteral("object")},
                       {QStringLiteral("title"), QString::fromLatin1(kTitle)}};
    QStringList descriptions;
    for (const GuardRule &rule : rules) {
        descriptions << rule.describe();
        const QStringList segments = rule.path.split(QLatin1Char('.'));
        if (rule.kind == GuardRule::Kind::MaxItems) {
            place(schema, segments, QJsonObject{{QStringLiteral("maxItems"), qint64(rule.keep)}});
            if (!rule.flagField.isEmpty())
                place(schema, rule.flagField.split(QLatin1Char('.')),
                      QJsonObject{{QStringLiteral("bsonType"), QStringLiteral("bool")}});
            continue;
        }
        const QJsonObject types{
            {QStringLiteral("bsonType"), QJsonArray::fromStringList(rule.types)}};
        placeThrough(schema, segments,
                     rule.elements ? QJsonObject{{QStringLiteral("items"), types}} : types);
    }
    schema.insert(QStringLiteral("description"), descriptions.join(QStringLiteral("; ")));
    const QByteArray json =
        QJsonDocument(QJsonObject{{QStringLiteral("$jsonSchema"), schema}}).toJson();
    const auto doc = BsonDocument::fromJson(json);
    return doc ? doc->bytes() : QByteArray();
}

QByteArray GuardValidator::merged(const QByteArray &previousValidator, const QByteArray &guard)
{
    bson_t previous, own;
    if (previousValidator.isEmpty() || !view(previousValidator, &previous) ||
        bson_count_keys(&previous) == 0)
        return guard;
    if (!view(guard, &own))
        return {};
    BsonDocument out;
    bson_t list;
    bson_append_array_begin(out.get(), "$and", -1, &list);
    bson_append_document(&list, "0", -1, &previous);
    bson_append_document(&list, "1", -1, &own);
    bson_append_array_end(out.get(), &list);
    return out.bytes();
}

QByteArray GuardValidator::collMod(const QString &collection, const QByteArray &validator,
                                   ValidationLevel level, ValidationAction action)
{
    bson_t v;
    if (!view(validator, &v) || level == ValidationLevel::Unknown ||
        action == ValidationAction::Unknown)
        return {};
    BsonDocument out;
    bsonraw::appendText(out.get(), "collMod", collection);
    bson_append_document(out.get(), "validator", -1, &v);
    bsonraw::appendText(out.get(), "validationLevel", validationLevelName(level));
    bsonraw::appendText(out.get(), "validationAction", validationActionName(action));
    return out.bytes();
}

QByteArray GuardValidator::restore(const QString &collection, const ValidationSettings &target)
{
    BsonDocument out;
    bsonraw::appendText(out.get(), "collMod", collection);
    bson_t rule;
    if (view(target.validator, &rule)) {
        bson_append_document(out.get(), "validator", -1, &rule);
    } else {
        bson_t empty = BSON_INITIALIZER;
        bson_append_document(out.get(), "validator", -1, &empty);
    }
    bsonraw::appendText(out.get(), "validationLevel", target.levelWord);
    bsonraw::appendText(out.get(), "validationAction", target.actionWord);
    return out.bytes();
}

namespace {

// {$jsonSchema: {title: kTitle, ...}} alone: a guard of ours.
bool isGuard(const bson_t *doc)
{
    bson_iter_t it, title;
    if (bson_count_keys(doc) != 1 || !bson_iter_init_find(&it, doc, "$jsonSchema") ||
        !BSON_ITER_HOLDS_DOCUMENT(&it) || !bson_iter_recurse(&it, &title) ||
        !bson_iter_find(&title, "title") || !BSON_ITER_HOLDS_UTF8(&title))
        return false;
    return qstrcmp(bson_iter_utf8(&title, nullptr), GuardValidator::kTitle) == 0;
}

bool iterDocument(const bson_iter_t *it, bson_t *doc)
{
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    if (BSON_ITER_HOLDS_DOCUMENT(it))
        bson_iter_document(it, &length, &data);
    else if (BSON_ITER_HOLDS_ARRAY(it))
        bson_iter_array(it, &length, &data);
    return data && bson_init_static(doc, data, length);
}

QByteArray stripped(const bson_t *doc, bool *found);

// The rules of an `$and` list other than guards, each stripped in turn.
std::vector<QByteArray> keptRules(const bson_iter_t *list, bool *found)
{
    std::vector<QByteArray> kept;
    bson_t items;
    bson_iter_t item;
    if (!iterDocument(list, &items) || !bson_iter_init(&item, &items))
        return kept;
    while (bson_iter_next(&item)) {
        bson_t rule;
        if (!iterDocument(&item, &rule))
            continue;
        if (isGuard(&rule)) {
            *found = true;
            continue;
        }
        kept.push_back(stripped(&rule, found));
    }
    return kept;
}

QByteArray stripped(const bson_t *doc, bool *found)
{
    if (isGuard(doc)) {
        *found = true;
        return BsonDocument().bytes();
    }
    BsonDocument out;
    bson_iter_t it;
    bson_iter_init(&it, doc);
    std::vector<QByteArray> andRules;
    bool hasAnd = false;
    while (bson_iter_next(&it)) {
        if (qstrcmp(bson_iter_key(&it), "$and") != 0 || !BSON_ITER_HOLDS_ARRAY(&it)) {
            bson_append_iter(out.get(), bson_iter_key(&it), -1, &it);
            continue;
        }
        hasAnd = true;
        andRules = keptRules(&it, found);
        if (andRules.empty())
            continue;
        bson_t list;
        bson_append_array_begin(out.get(), "$and", -1, &list);
        for (std::size_t i = 0; i < andRules.size(); ++i) {
            bson_t rule;
            view(andRules[i], &rule);
            const std::string key = std::to_string(i);
            bson_append_document(&list, key.c_str(), -1, &rule);
        }
        bson_append_array_end(out.get(), &list);
    }
    // {$and: [one]} is that one rule.
    if (hasAnd && andRules.size() == 1 && bson_count_keys(out.get()) == 1)
        return andRules.front();
    return out.bytes();
}

// The first guard of ours in `doc` (itself, or in an `$and` list at any depth): its bytes.
QByteArray findGuard(const bson_t *doc)
{
    if (isGuard(doc))
        return QByteArray(reinterpret_cast<const char *>(bson_get_data(doc)), qsizetype(doc->len));
    bson_iter_t it;
    if (!bson_iter_init_find(&it, doc, "$and") || !BSON_ITER_HOLDS_ARRAY(&it))
        return {};
    bson_t items;
    bson_iter_t item;
    if (!iterDocument(&it, &items) || !bson_iter_init(&item, &items))
        return {};
    while (bson_iter_next(&item)) {
        bson_t rule;
        if (!iterDocument(&item, &rule))
            continue;
        if (const QByteArray found = findGuard(&rule); !found.isEmpty())
            return found;
    }
    return {};
}

// The dotted path of the first property held to {bsonType: "bool"}.
QString boolProperty(const QJsonObject &schema, const QString &prefix)
{
    const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        const QJsonObject node = it.value().toObject();
        if (node.value(QStringLiteral("bsonType")).toString() == QLatin1String("bool"))
            return path;
        if (const QString inner = boolProperty(node, path); !inner.isEmpty())
            return inner;
    }
    return {};
}

} // namespace

QByteArray GuardValidator::without(const QByteArray &validator)
{
    bson_t doc;
    if (validator.isEmpty() || !view(validator, &doc))
        return BsonDocument().bytes();
    bool found = false;
    const QByteArray out = stripped(&doc, &found);
    return found ? out : validator;
}

QString GuardValidator::flagOf(const QByteArray &validator)
{
    bson_t doc;
    if (validator.isEmpty() || !view(validator, &doc))
        return {};
    const QByteArray guard = findGuard(&doc);
    if (guard.isEmpty())
        return {};
    const QJsonObject schema = QJsonDocument::fromJson(toJson(guard).toUtf8())
                                   .object()
                                   .value(QStringLiteral("$jsonSchema"))
                                   .toObject();
    return boolProperty(schema, QString());
}

QByteArray GuardValidator::guardOf(const QByteArray &validator)
{
    bson_t doc;
    if (validator.isEmpty() || !view(validator, &doc))
        return {};
    return findGuard(&doc);
}

bool GuardValidator::containsGuard(const QByteArray &validator)
{
    bson_t doc;
    if (validator.isEmpty() || !view(validator, &doc))
        return false;
    bool found = false;
    stripped(&doc, &found);
    return found;
}

bool GuardValidator::sameRule(const QByteArray &a, const QByteArray &b)
{
    const auto empty = [](const QByteArray &bytes) {
        bson_t doc;
        return bytes.isEmpty() || (view(bytes, &doc) && bson_count_keys(&doc) == 0);
    };
    if (empty(a) || empty(b))
        return empty(a) && empty(b);
    return a == b;
}

QByteArray GuardValidator::violations(const QByteArray &guard)
{
    bson_t own;
    if (!view(guard, &own))
        return {};
    BsonDocument out;
    bson_t list;
    bson_append_array_begin(out.get(), "$nor", -1, &list);
    bson_append_document(&list, "0", -1, &own);
    bson_append_array_end(out.get(), &list);
    return out.bytes();
}

QString GuardValidator::toJson(const QByteArray &bytes)
{
    bson_t doc;
    if (!view(bytes, &doc))
        return {};
    char *text = bson_as_relaxed_extended_json(&doc, nullptr);
    const QString out = QString::fromUtf8(text);
    bson_free(text);
    return out;
}

} // namespace oe
