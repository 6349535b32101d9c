#include "codegen/CodeTemplate.h"

#include "codegen/CodeIdentifier.h"
#include "codegen/CodeLiteral.h"

#include <QRegularExpression>

namespace oe {

QHash<QString, QString> CodeTemplate::names(const SplitConfig &input, CodeLanguage language)
{
    const SplitConfig c = input.withDefaults();
    const auto literal = [language](const QString &name) {
        return CodeLiteral::quote(language, name);
    };
    QStringList path;
    for (const QString &part : c.pathSegments())
        path << literal(part);
    return {
        {QStringLiteral("collection"), literal(c.collection)},
        {QStringLiteral("field"), literal(c.field)},
        {QStringLiteral("overflow"), literal(c.overflowCollection)},
        {QStringLiteral("link"), literal(c.linkField)},
        {QStringLiteral("page"), literal(c.pageField)},
        {QStringLiteral("items"), literal(c.itemsField)},
        {QStringLiteral("flag"), literal(c.flagField)},
        {QStringLiteral("count"), literal(c.countField)},
        {QStringLiteral("pages"), literal(c.pagesField)},
        // Field paths in update pipelines' expressions.
        {QStringLiteral("fieldRef"), literal(QLatin1Char('$') + c.field)},
        {QStringLiteral("flagRef"), literal(QLatin1Char('$') + c.flagField)},
        {QStringLiteral("countRef"), literal(QLatin1Char('$') + c.countField)},
        {QStringLiteral("pagesRef"), literal(QLatin1Char('$') + c.pagesField)},
        {QStringLiteral("fieldKeepLast"),
         literal(c.field + QLatin1Char('.') + QString::number(c.keep - 1))},
        {QStringLiteral("itemsPageLast"),
         literal(c.itemsField + QLatin1Char('.') + QString::number(c.pageSize - 1))},
        {QStringLiteral("indexName"),
         literal(c.linkField + QStringLiteral("_1_") + c.pageField + QStringLiteral("_1"))},
        {QStringLiteral("path"), path.join(QStringLiteral(", "))},
        // Prose: what the write path's first round trip also sets.
        {QStringLiteral("andPages"),
         c.pagesField.isEmpty() ? QString() : QStringLiteral(" and the page count")},
        {QStringLiteral("keep"), QString::number(c.keep)},
        {QStringLiteral("pageSize"), QString::number(c.pageSize)},
        {QStringLiteral("Name"),
         CodeIdentifier::derive(c.field, CodeIdentifier::Style::UpperCamel)},
        {QStringLiteral("name_"), CodeIdentifier::derive(c.field, CodeIdentifier::Style::Snake)},
    };
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
