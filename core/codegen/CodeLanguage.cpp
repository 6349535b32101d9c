#include "codegen/CodeLanguage.h"

#include <array>
#include <utility>

namespace oe::codelanguage {

namespace {

struct Entry
{
    CodeLanguage language;
    const char *name;
    const char *label;
    const char *extension;
};

constexpr std::array<Entry, 6> kEntries{{
    {CodeLanguage::JavaScript, "js", "JavaScript (Node.js driver)", "js"},
    {CodeLanguage::Python, "python", "Python (PyMongo)", "py"},
    {CodeLanguage::Java, "java", "Java (sync driver)", "java"},
    {CodeLanguage::C, "c", "C (libmongoc)", "c"},
    {CodeLanguage::Go, "go", "Go (mongo-driver v2)", "go"},
    {CodeLanguage::Mongosh, "mongosh", "mongosh", "js"},
}};

const Entry &entry(CodeLanguage language)
{
    for (const Entry &e : kEntries)
        if (e.language == language)
            return e;
    return kEntries.front();
}

} // namespace

QStringList names()
{
    QStringList out;
    for (const Entry &e : kEntries)
        out << QString::fromLatin1(e.name);
    return out;
}

std::optional<CodeLanguage> parse(const QString &name)
{
    for (const Entry &e : kEntries)
        if (name.compare(QLatin1String(e.name), Qt::CaseInsensitive) == 0)
            return e.language;
    if (name.compare(QLatin1String("javascript"), Qt::CaseInsensitive) == 0 ||
        name.compare(QLatin1String("node"), Qt::CaseInsensitive) == 0)
        return CodeLanguage::JavaScript;
    return std::nullopt;
}

QString name(CodeLanguage language)
{
    return QString::fromLatin1(entry(language).name);
}

QString label(CodeLanguage language)
{
    return QString::fromLatin1(entry(language).label);
}

QString extension(CodeLanguage language)
{
    return QString::fromLatin1(entry(language).extension);
}

} // namespace oe::codelanguage
