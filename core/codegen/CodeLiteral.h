#pragma once

#include "codegen/CodeLanguage.h"

#include <QString>

namespace oe {

// A name as a string literal of a generated language: double-quoted, its value exactly the
// name, whatever it holds (quotes, backslashes, control characters, line separators, non-ASCII
// and non-BMP characters). Every literal is printable ASCII without a line break, so it is
// also safe inside a line comment; names never appear in generated code any other way.
class CodeLiteral
{
public:
    static QString quote(CodeLanguage language, const QString &text);

    // JavaScript and mongosh: \uXXXX for everything outside printable ASCII (UTF-16 units),
    // which covers U+2028 and U+2029 (line terminators in older engines). Never a template
    // literal, so `${` is plain text.
    static QString javaScript(const QString &text);
    // Python: \xXX, \uXXXX, \UXXXXXXXX by code point (a surrogate pair would be two
    // characters in Python).
    static QString python(const QString &text);
    // Java: control characters as octal escapes (a \u000a would end the line before lexing),
    // other non-ASCII as \uXXXX; backslashes doubled, so a name holding "\u0022" stays text.
    static QString java(const QString &text);
    // Go: \xXX for control characters, \uXXXX and \UXXXXXXXX by code point.
    static QString go(const QString &text);
    // C: the UTF-8 bytes, non-printable ones as three-digit octal escapes (which never take
    // the following digit, unlike \x), and every '?' as \? (no trigraph can form).
    static QString c(const QString &text);
};

} // namespace oe
