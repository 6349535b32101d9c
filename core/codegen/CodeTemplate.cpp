#include "CodeTemplate.h"

#include <QRegularExpression>

namespace oe {

namespace {

QStringList words(const QString &field)
{
    return field.split(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), Qt::SkipEmptyParts);
}

QString camel(const QString &field)
{
    QString out;
    for (const QString &w : words(field))
        out += w.left(1).toUpper() + w.mid(1);
    return out.isEmpty() ? QStringLiteral("Items") : out;
}

QString snake(const QString &field)
{
    QString out;
    for (const QString &w : words(field)) {
        QString part;
        for (const QChar c : w) {
            if (c.isUpper() && !part.isEmpty() && !part.back().isUpper())
                part += QLatin1Char('_');
            part += c.toLower();
        }
        out += (out.isEmpty() ? QString() : QStringLiteral("_")) + part;
    }
    return out.isEmpty() ? QStringLiteral("items") : out;
}

} // namespace

QHash<QString, QString> CodeTemplate::names(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    return {
        {QStringLiteral("collection"), c.collection},
        {QStringLiteral("field"), c.field},
        {QStringLiteral("overflow"), c.overflowCollection},
        {QStringLiteral("link"), c.linkField},
        {QStringLiteral("page"), c.pageField},
        {QStringLiteral("items"), c.itemsField},
        {QStringLiteral("flag"), c.flagField},
        {QStringLiteral("count"), c.countField},
        {QStringLiteral("pages"), c.pagesField},
        {QStringLiteral("keep"), QString::number(c.keep)},
        {QStringLiteral("keepLast"), QString::number(c.keep - 1)},
        {QStringLiteral("pageSize"), QString::number(c.pageSize)},
        {QStringLiteral("pageLast"), QString::number(c.pageSize - 1)},
        {QStringLiteral("Name"), camel(c.field)},
        {QStringLiteral("name_"), snake(c.field)},
    };
}

QString CodeTemplate::snakeCase(const QString &name)
{
    return snake(name);
}

QString CodeTemplate::upperCamel(const QString &name)
{
    return camel(name);
}

QString CodeTemplate::quotedParts(const QString &path)
{
    QStringList parts;
    for (const QString &part : path.split(QLatin1Char('.')))
        parts << QStringLiteral("\"%1\"").arg(part);
    return parts.join(QStringLiteral(", "));
}

QString CodeTemplate::fill(QString text, const QHash<QString, QString> &values)
{
    static const QRegularExpression token(QStringLiteral("\\{\\{([A-Za-z_]+)\\}\\}"));
    QString out;
    qsizetype at = 0;
    for (auto it = token.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        const auto value = values.constFind(m.captured(1));
        if (value == values.constEnd())
            qFatal("code template: no value for {{%s}}", qPrintable(m.captured(1)));
        out += text.mid(at, m.capturedStart() - at) + *value;
        at = m.capturedEnd();
    }
    return out + text.mid(at);
}

} // namespace oe
