#include "remedy/keys/KeysToArrayRemedy.h"

#include "remedy/internal/RawValues.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <string>

namespace oe {

using namespace rawvalues;

QString KeysToArrayRemedy::cliHelp() const
{
    return QStringLiteral("Keys used as data to an array of {k, v} (the attribute pattern), in "
                          "the object's order.");
}

QString KeysToArrayRemedy::label() const
{
    return QStringLiteral("Keys to an array of {k, v} (the attribute pattern)");
}

QString KeysToArrayRemedy::offer(const RewriteConfig &config) const
{
    return QStringLiteral("Keys to an array of {%1, %2}").arg(config.keyName, config.valueName);
}

QString KeysToArrayRemedy::describe(const RewriteConfig &config) const
{
    return QStringLiteral("%1: keys to an array of {%2, %3}")
        .arg(config.path, config.keyName, config.valueName);
}

QString KeysToArrayRemedy::indexSuggestion(const RewriteConfig &config) const
{
    const QJsonObject index{{config.path + QLatin1Char('.') + config.keyName, 1}};
    return QString::fromUtf8(QJsonDocument(index).toJson(QJsonDocument::Compact));
}

QString KeysToArrayRemedy::consequence(const RewriteConfig &config) const
{
    return QStringLiteral("index suggestion: %1 (the keys as values: one index serves every key)")
        .arg(indexSuggestion(config));
}

QString KeysToArrayRemedy::windowNote(const RewriteConfig &config) const
{
    return QStringLiteral("Index suggestion: %1 (the keys as values: one index serves every "
                          "key).")
        .arg(indexSuggestion(config));
}

RewriteResult KeysToArrayRemedy::rewrite(const RewriteConfig &config, const QByteArray &raw) const
{
    return onValue(raw, [&](const bson_iter_t *value) {
        if (!BSON_ITER_HOLDS_DOCUMENT(value))
            return unchanged(
                QStringLiteral("not an object (%1)").arg(typeName(bson_iter_type(value))));
        const QByteArray key = config.keyName.toUtf8();
        const QByteArray val = config.valueName.toUtf8();
        return changed(rawOf([&](bson_t *out) {
            bson_t list;
            bson_iter_t field;
            bson_append_array_begin(out, "v", 1, &list);
            bson_iter_recurse(value, &field);
            for (std::uint32_t i = 0; bson_iter_next(&field); ++i) {
                const std::string index = std::to_string(i);
                bson_t pair;
                bson_append_document_begin(&list, index.c_str(), -1, &pair);
                bson_append_utf8(&pair, key.constData(), int(key.size()), bson_iter_key(&field),
                                 int(bson_iter_key_len(&field)));
                bson_append_iter(&pair, val.constData(), int(val.size()), &field);
                bson_append_document_end(&list, &pair);
            }
            bson_append_array_end(out, &list);
        }));
    });
}

QByteArray KeysToArrayRemedy::scanFilter(const RewriteConfig &config) const
{
    // An array of sub-documents matches {$type: "object"} too (by its elements).
    return filterOn(config.path, [](bson_t *condition) {
        bson_append_utf8(condition, "$type", -1, "object", -1);
        appendNotArray(condition);
    });
}

} // namespace oe
