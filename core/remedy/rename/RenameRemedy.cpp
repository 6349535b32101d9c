#include "remedy/rename/RenameRemedy.h"

#include "remedy/internal/FieldsDocument.h"
#include "remedy/internal/RawValues.h"

namespace oe {

using namespace rawvalues;

QString RenameRemedy::cliHelp() const
{
    return QStringLiteral("Rename the top-level field --path to NAME in every document (the "
                          "value kept as it is; a document holding NAME already is listed and "
                          "left); --rollback puts the old name back in its place.");
}

QString RenameRemedy::offer(const RewriteConfig &config) const
{
    return QStringLiteral("Rename %1 to %2").arg(config.path, config.newName);
}

std::optional<RewriteConfig> RenameRemedy::suggest(const ShapeFlag &flag, const FieldProfile &,
                                                   const QString &, qint64) const
{
    if (flag.path.empty() || flag.path.find('.') != std::string::npos)
        return std::nullopt; // a top-level field's
    RewriteConfig config;
    config.kind = kind(); // the new name: the user's
    return config;
}

QString RenameRemedy::problem(const RewriteConfig &config) const
{
    if (config.path.contains(QLatin1Char('.')))
        return QStringLiteral("field path '%1': a rename names a top-level field").arg(config.path);
    if (QString p = plainNameProblem(QStringLiteral("the new name"), config.newName); !p.isEmpty())
        return p;
    if (config.newName == QLatin1String("_id") || config.newName == config.path)
        return QStringLiteral("the new name '%1' is _id or the field's own").arg(config.newName);
    return {};
}

QString RenameRemedy::describe(const RewriteConfig &config) const
{
    return QStringLiteral("%1: renamed to %2").arg(config.path, config.newName);
}

QString RenameRemedy::subject(const RewriteConfig &config) const
{
    return QStringLiteral("the field %1").arg(config.path);
}

QString RenameRemedy::consequence(const RewriteConfig &config) const
{
    return QStringLiteral("each document's %1 becomes %2, its value as it is (at the end of the "
                          "document, as $rename puts it; a rollback puts %1 back in its place); "
                          "queries, indexes and validators naming %1 are yours to change")
        .arg(config.path, config.newName);
}

QString RenameRemedy::windowNote(const RewriteConfig &config) const
{
    return QStringLiteral("Each document's %1 becomes %2 (at the end of the document; Roll back "
                          "puts %1 back in its place). Queries, indexes and validators naming %1 "
                          "are yours to change.")
        .arg(config.path, config.newName);
}

RewriteResult RenameRemedy::rewrite(const RewriteConfig &config, const QByteArray &raw) const
{
    const QByteArray from = config.path.toUtf8();
    const QByteArray to = config.newName.toUtf8();
    QByteArray value;
    bool holdsNew = false;
    const bool read = FieldsDocument::eachField(raw, [&](const bson_iter_t *field) {
        const QByteArray name(bson_iter_key(field), qsizetype(bson_iter_key_len(field)));
        if (name == from)
            value = bsonraw::valueOf(field);
        holdsNew = holdsNew || name == to;
    });
    if (!read)
        return cannot(QStringLiteral("not a document"));
    if (value.isEmpty())
        return unchanged(QStringLiteral("no field %1").arg(config.path));
    if (holdsNew)
        return cannot(QStringLiteral("the document holds a field %1 already").arg(config.newName));
    BsonDocument after;
    bsonraw::append(after.get(), to.constData(), int(to.size()), value);
    return changed(FieldsDocument::rawOfDocument(after.bytes()));
}

QByteArray RenameRemedy::scanFilter(const RewriteConfig &config) const
{
    return filterOn(config.path,
                    [](bson_t *condition) { bson_append_bool(condition, "$exists", -1, true); });
}

} // namespace oe
