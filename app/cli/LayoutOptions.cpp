#include "LayoutOptions.h"

#include "CliSupport.h"

namespace cli {

namespace {

bool numberOption(const QCommandLineParser &parser, const char *name, std::int64_t *out)
{
    const QString option = QString::fromLatin1(name);
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    *out = parser.value(option).toLongLong(&ok);
    if (!ok)
        fail(ExitUsage, QStringLiteral("--%1 expects a whole number, got '%2'")
                            .arg(option, parser.value(option)));
    return ok;
}

} // namespace

void addLayoutOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("field"), QStringLiteral("The array, in dot notation."),
         QStringLiteral("PATH")},
        {QStringLiteral("keep"), QStringLiteral("Elements left in the document."),
         QStringLiteral("N")},
        {QStringLiteral("page-size"),
         QStringLiteral("Elements per overflow document (default 1000)."), QStringLiteral("P")},
        {QStringLiteral("overflow-collection"), QStringLiteral("Default <collection>_overflow."),
         QStringLiteral("NAME")},
        {QStringLiteral("link-field"), QStringLiteral("Default parent_id."), QStringLiteral("F")},
        {QStringLiteral("page-field"), QStringLiteral("Default page."), QStringLiteral("F")},
        {QStringLiteral("items-field"), QStringLiteral("Default: the array's name."),
         QStringLiteral("F")},
        {QStringLiteral("flag-field"), QStringLiteral("Default has_extras."), QStringLiteral("F")},
        {QStringLiteral("count-field"),
         QStringLiteral("The total length, also the write path's slot counter. "
                        "Default <field>_count."),
         QStringLiteral("F")},
        {QStringLiteral("pages-field"), QStringLiteral("Optional: the number of pages."),
         QStringLiteral("F")},
    });
}

bool layoutFrom(const QCommandLineParser &parser, oe::SplitConfig *config)
{
    if (parser.isSet(QStringLiteral("field")))
        config->field = parser.value(QStringLiteral("field"));
    if (!numberOption(parser, "keep", &config->keep) ||
        !numberOption(parser, "page-size", &config->pageSize))
        return false;
    const std::pair<const char *, QString *> names[] = {
        {"overflow-collection", &config->overflowCollection},
        {"link-field", &config->linkField},
        {"page-field", &config->pageField},
        {"items-field", &config->itemsField},
        {"flag-field", &config->flagField},
        {"count-field", &config->countField},
        {"pages-field", &config->pagesField}};
    for (const auto &[option, target] : names)
        if (parser.isSet(QString::fromLatin1(option)))
            *target = parser.value(QString::fromLatin1(option));
    return true;
}

} // namespace cli
