#pragma once

#include "codegen/CodeLanguage.h"

namespace oe {

// The text of the extracted layout's read and write paths in each language, with {{tokens}}
// for ExtractSnippet to fill.
namespace ExtractTemplates {
const char *text(CodeLanguage language);
// Java, Go and C's (ExtractTemplatesCompiled.cpp); "" for the others.
const char *compiled(CodeLanguage language);
} // namespace ExtractTemplates

} // namespace oe
