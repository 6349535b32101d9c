#pragma once

#include "codegen/CodeLanguage.h"
#include "split/SplitConfig.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace oe {

// The application's side of a split, for the chosen names: the outlier pattern's write path
// (the guarded append: into the document while it holds fewer than `keep` elements, else into
// its last overflow page, opening the next at the page size, flag and counters kept right) and
// its read path (a range, and every element), in one language with its official driver. What
// `codegen` prints and the wizard's last page shows; tests run every language against a server.
// Every name enters the code as an escaped string literal (CodeLiteral); identifiers derived
// from names are safe in every language (CodeIdentifier).
class CodeGenerator
{
public:
    // The largest keep and page size the generated code holds exactly in every language
    // (JavaScript's numbers: 2^53 - 1; the others use 64-bit integers).
    static constexpr std::int64_t kMaxNumber = (std::int64_t(1) << 53) - 1;

    static QString generate(CodeLanguage language, const SplitConfig &config);
    // The layout's problems (SplitConfig::problems) and numbers past kMaxNumber.
    static QStringList problems(const SplitConfig &config);
    // A file name for the snippet: "books_customers_purchased.js", "CustomersPurchasedAccess.java"
    // (identifiers derived from the names, so never too long or unsafe as a path).
    static QString fileName(CodeLanguage language, const SplitConfig &config);
};

} // namespace oe
