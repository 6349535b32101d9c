#pragma once

#include "codegen/CodeLanguage.h"

namespace oe {

// The text of the extracted layout's read and write paths in each language, with {{tokens}}
// for ExtractSnippet to fill.
namespace ExtractTemplates {
const char *text(CodeLanguage language);
} // namespace ExtractTemplates

} // namespace oe
