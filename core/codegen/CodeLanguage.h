#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace oe {

// The languages `codegen --lang` writes the outlier pattern's read and write paths in, each
// for its official driver.
enum class CodeLanguage
{
    JavaScript, // Node.js, the `mongodb` package
    Python,     // PyMongo
    Java,       // the MongoDB Java sync driver
    C,          // libmongoc
    Go,         // the Go driver (go.mongodb.org/mongo-driver/v2)
    Mongosh,    // the shell, for trying it by hand
};

namespace codelanguage {
QStringList names(); // "js", "python", "java", "c", "go", "mongosh"
std::optional<CodeLanguage> parse(const QString &name);
QString name(CodeLanguage language);
QString label(CodeLanguage language);     // "JavaScript (Node.js driver)", …
QString extension(CodeLanguage language); // "js", "py", "java", "c", "go", "js"
} // namespace codelanguage

} // namespace oe
