#pragma once

#include "codegen/CodeLanguage.h"

namespace oe {

// The attribute pattern's generated code (`codegen --attributes`), one template a language:
// the read path (a document with its attributes as fields again), a lookup served by the index
// {<array>.k: 1, <array>.v: 1}, and the writes of one attribute. Empty for a language without
// one (Java, C and Go: not generated yet).
class AttributeTemplates
{
public:
    static const char *text(CodeLanguage language);
    static bool available(CodeLanguage language) { return *text(language) != '\0'; }
};

} // namespace oe
