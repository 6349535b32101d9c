#include "guard/ValidationSettings.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

namespace oe {

namespace {

bool view(const QByteArray &bytes, bson_t *doc)
{
    return !bytes.isEmpty() &&
           bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

ValidationLevel levelFrom(const QString &word)
{
    for (ValidationLevel level :
         {ValidationLevel::Off, ValidationLevel::Moderate, ValidationLevel::Strict})
        if (word == validationLevelName(level))
            return level;
    return ValidationLevel::Unknown;
}

ValidationAction actionFrom(const QString &word)
{
    for (ValidationAction action :
         {ValidationAction::Warn, ValidationAction::Error, ValidationAction::ErrorAndLog})
        if (word == validationActionName(action))
            return action;
    return ValidationAction::Unknown;
}

} // namespace

QString validationLevelName(ValidationLevel level)
{
    switch (level) {
    case ValidationLevel::Off:
        return QStringLiteral("off");
    case ValidationLevel::Moderate:
        return QStringLiteral("moderate");
    case ValidationLevel::Strict:
        return QStringLiteral("strict");
    case ValidationLevel::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString validationActionName(ValidationAction action)
{
    switch (action) {
    case ValidationAction::Warn:
        return QStringLiteral("warn");
    case ValidationAction::Error:
        return QStringLiteral("error");
    case ValidationAction::ErrorAndLog:
        return QStringLiteral("errorAndLog");
    case ValidationAction::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

ValidationSettings ValidationSettings::fromOptions(const QByteArray &options)
{
    ValidationSettings out;
    out.levelWord = validationLevelName(out.level);
    out.actionWord = validationActionName(out.action);
    bson_t doc;
    if (!view(options, &doc))
        return out;
    bson_iter_t it;
    if (bson_iter_init_find(&it, &doc, "validator") && BSON_ITER_HOLDS_DOCUMENT(&it)) {
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_document(&it, &length, &data);
        out.validator = QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
        out.validatorListed = true;
    }
    if (bson_iter_init_find(&it, &doc, "validationLevel") && BSON_ITER_HOLDS_UTF8(&it)) {
        out.levelWord = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
        out.level = levelFrom(out.levelWord);
        out.levelListed = true;
    }
    if (bson_iter_init_find(&it, &doc, "validationAction") && BSON_ITER_HOLDS_UTF8(&it)) {
        out.actionWord = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
        out.action = actionFrom(out.actionWord);
        out.actionListed = true;
    }
    return out;
}

QByteArray ValidationSettings::toOptions() const
{
    BsonDocument out;
    bson_t rule;
    if (validatorListed && view(validator, &rule))
        bson_append_document(out.get(), "validator", -1, &rule);
    if (levelListed)
        bsonraw::appendText(out.get(), "validationLevel", levelWord);
    if (actionListed)
        bsonraw::appendText(out.get(), "validationAction", actionWord);
    return out.bytes();
}

bool ValidationSettings::hasRule() const
{
    bson_t doc;
    return view(validator, &doc) && bson_count_keys(&doc) > 0;
}

bool ValidationSettings::enforces() const
{
    return hasRule() && level != ValidationLevel::Off;
}

QString ValidationSettings::levelText() const
{
    return levelListed ? levelWord : levelWord + QStringLiteral(" (not listed: the default)");
}

QString ValidationSettings::actionText() const
{
    return actionListed ? actionWord : actionWord + QStringLiteral(" (not listed: the default)");
}

QString ValidationSettings::describe() const
{
    return QStringLiteral("validationLevel %1, validationAction %2").arg(levelText(), actionText());
}

} // namespace oe
