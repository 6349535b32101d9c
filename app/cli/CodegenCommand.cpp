#include "CodegenCommand.h"

#include "CliSupport.h"
#include "ExtractOptions.h"
#include "LayoutOptions.h"
#include "codegen/AttributeSnippet.h"
#include "codegen/AttributeTemplates.h"
#include "codegen/CodeGenerator.h"
#include "codegen/ExtractSnippet.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/RewriteConfig.h"
#include "split/SplitLayoutPreset.h"

#include <cstdio>

namespace {

void addOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Write the application's read and write paths for a split layout (the outlier "
        "pattern's guarded append and paged read) with the language's official driver; with "
        "--extract, the read and write paths of an extracted field (the subset pattern); with "
        "--attributes, those of the attribute array `rewrite --attributes` leaves."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("lang"), QStringLiteral("js, python, java, c, go or mongosh."),
         QStringLiteral("LANG")},
        {QStringLiteral("collection"), QStringLiteral("The collection that holds the array."),
         QStringLiteral("NAME")},
        {QStringLiteral("preset"),
         QStringLiteral("A layout from the seed texts: book-sales, activity-feed, viral-post "
                        "(options given as well override it)."),
         QStringLiteral("NAME")},
        {QStringLiteral("out"), QStringLiteral("Write to this file (default: standard output)."),
         QStringLiteral("FILE")},
        {QStringLiteral("extract"),
         QStringLiteral("The layout `rewrite --extract` leaves: the document whole again on "
                        "read, the value to the side collection and its excerpt on write.")},
        {QStringLiteral("path"),
         QStringLiteral("--extract: the extracted field (dot notation); --attributes: the array "
                        "(attrs)."),
         QStringLiteral("PATH")},
        {QStringLiteral("attributes"),
         QStringLiteral("The layout `rewrite --attributes` leaves (js, python or mongosh): a "
                        "document read with its attributes as fields again, the lookup the "
                        "index serves, an attribute set or taken out.")},
        {QStringLiteral("key-name"), QStringLiteral("--attributes: the elements' key field (k)."),
         QStringLiteral("NAME"), QStringLiteral("k")},
        {QStringLiteral("value-name"),
         QStringLiteral("--attributes: the elements' value field (v)."), QStringLiteral("NAME"),
         QStringLiteral("v")},
    });
    cli::addLayoutOptions(parser);
    cli::addExtractOptions(parser);
}

std::optional<oe::CodeLanguage> languageFrom(const QCommandLineParser &parser)
{
    const auto lang = oe::codelanguage::parse(parser.value(QStringLiteral("lang")));
    if (!lang)
        cli::fail(ExitUsage, QStringLiteral("--lang expects one of %1, got '%2'")
                                 .arg(oe::codelanguage::names().join(QStringLiteral(", ")),
                                      parser.value(QStringLiteral("lang"))));
    return lang;
}

// --lang, --collection, --field, --keep (or a preset's), then the layout's own checks.
int configFrom(const QCommandLineParser &parser, oe::CodeLanguage *language,
               oe::SplitConfig *config)
{
    const auto lang = languageFrom(parser);
    if (!lang)
        return ExitUsage;
    *language = *lang;
    config->collection = parser.value(QStringLiteral("collection"));
    if (config->collection.isEmpty())
        return cli::fail(ExitUsage, QStringLiteral("codegen needs --collection NAME"));
    bool keepGiven = parser.isSet(QStringLiteral("keep"));
    if (parser.isSet(QStringLiteral("preset"))) {
        const auto preset = oe::splitlayout::parse(parser.value(QStringLiteral("preset")));
        if (!preset)
            return cli::fail(ExitUsage,
                             QStringLiteral("--preset expects one of %1, got '%2'")
                                 .arg(oe::splitlayout::names().join(QStringLiteral(", ")),
                                      parser.value(QStringLiteral("preset"))));
        *config = oe::splitlayout::apply(*preset, *config);
        keepGiven = keepGiven || *preset != oe::SplitLayoutPreset::Default;
    }
    if (!cli::layoutFrom(parser, config))
        return ExitUsage;
    if (config->field.isEmpty())
        return cli::fail(ExitUsage, QStringLiteral("codegen needs --field PATH"));
    if (!keepGiven)
        return cli::fail(ExitUsage, QStringLiteral("codegen needs --keep N (or --preset)"));
    if (const QStringList problems = oe::CodeGenerator::problems(*config); !problems.isEmpty())
        return cli::fail(ExitUsage, problems.first());
    return ExitSuccess;
}

// The remedy whose code `codegen --<option>` writes: the one `rewrite --<option>` applies.
oe::RewriteKind remedyOf(const QString &option)
{
    const oe::Remedy *remedy = oe::RemedyRegistry::byCliOption(option);
    return remedy ? remedy->kind() : oe::RemedyRegistry::all().front()->kind();
}

// codegen --extract: --lang, --collection, --path and the extraction's names.
int extractFrom(const QCommandLineParser &parser, oe::CodeLanguage *language,
                oe::RewriteConfig *config)
{
    const auto lang = languageFrom(parser);
    if (!lang)
        return ExitUsage;
    *language = *lang;
    config->kind = remedyOf(QStringLiteral("extract"));
    config->collection = parser.value(QStringLiteral("collection"));
    config->path = parser.value(QStringLiteral("path"));
    if (config->collection.isEmpty() || config->path.isEmpty())
        return cli::fail(ExitUsage, QStringLiteral("codegen --extract needs --collection NAME "
                                                   "and --path PATH"));
    if (!cli::extractFrom(parser, config))
        return ExitUsage;
    if (const QString problem = config->problem(); !problem.isEmpty())
        return cli::fail(ExitUsage, problem);
    return ExitSuccess;
}

// codegen --attributes: --lang (one with a template), --collection, --path and the names.
int attributesFrom(const QCommandLineParser &parser, oe::CodeLanguage *language,
                   oe::RewriteConfig *config)
{
    const auto lang = languageFrom(parser);
    if (!lang)
        return ExitUsage;
    if (!oe::AttributeTemplates::available(*lang))
        return cli::fail(ExitUsage, QStringLiteral("codegen --attributes writes js, python and "
                                                   "mongosh, not %1")
                                        .arg(oe::codelanguage::name(*lang)));
    *language = *lang;
    config->kind = remedyOf(QStringLiteral("attributes"));
    config->collection = parser.value(QStringLiteral("collection"));
    config->path = parser.isSet(QStringLiteral("path")) ? parser.value(QStringLiteral("path"))
                                                        : QStringLiteral("attrs");
    config->keyName = parser.value(QStringLiteral("key-name"));
    config->valueName = parser.value(QStringLiteral("value-name"));
    if (config->collection.isEmpty())
        return cli::fail(ExitUsage, QStringLiteral("codegen --attributes needs --collection NAME"));
    if (const QString problem = config->attributeArrayProblem(); !problem.isEmpty())
        return cli::fail(ExitUsage, problem);
    return ExitSuccess;
}

int write(const QString &path, const QString &code)
{
    const QByteArray utf8 = code.toUtf8();
    if (path.isEmpty()) {
        std::fwrite(utf8.constData(), 1, std::size_t(utf8.size()), stdout);
        return ExitSuccess;
    }
    return cli::writeFile(path, utf8);
}

} // namespace

namespace CodegenCommand {

int run(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    oe::CodeLanguage language{};
    if (parser.isSet(QStringLiteral("extract"))) {
        oe::RewriteConfig extract;
        if (const int rc = extractFrom(parser, &language, &extract); rc != ExitSuccess)
            return rc;
        return write(parser.value(QStringLiteral("out")),
                     oe::ExtractSnippet::generate(language, extract.extractLayout()));
    }
    if (parser.isSet(QStringLiteral("attributes"))) {
        oe::RewriteConfig attributes;
        if (const int rc = attributesFrom(parser, &language, &attributes); rc != ExitSuccess)
            return rc;
        return write(parser.value(QStringLiteral("out")),
                     oe::AttributeSnippet::generate(language, attributes.attributeLayout()));
    }
    oe::SplitConfig config;
    if (const int rc = configFrom(parser, &language, &config); rc != ExitSuccess)
        return rc;
    return write(parser.value(QStringLiteral("out")),
                 oe::CodeGenerator::generate(language, config.withDefaults()));
}

} // namespace CodegenCommand
