#pragma once

#include "CodeLanguage.h"
#include "SplitConfig.h"

#include <QString>

namespace oe {

// The application's side of a split, for the chosen names: the outlier pattern's write path
// (the guarded append: into the document while it holds fewer than `keep` elements, else into
// its last overflow page, opening the next at the page size, flag and counters kept right) and
// its read path (a range, and every element), in one language with its official driver. What
// `codegen` prints and the wizard's last page shows; tests run every language against a server.
class CodeGenerator
{
public:
    static QString generate(CodeLanguage language, const SplitConfig &config);
    // A file name for the snippet: "books_customers_purchased.js", "BooksCustomersPurchased.java"
    static QString fileName(CodeLanguage language, const SplitConfig &config);
};

} // namespace oe
