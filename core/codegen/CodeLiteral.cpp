#include "codegen/CodeLiteral.h"

#include <cstdint>

namespace oe {

namespace {

bool printable(char32_t c)
{
    return c >= 0x20 && c < 0x7f;
}

// \n, \r, \t, \" and \\, common to every language; false for anything else.
bool appendCommonEscape(QString &out, char32_t c)
{
    switch (c) {
    case U'\n':
        out += QLatin1String("\\n");
        return true;
    case U'\r':
        out += QLatin1String("\\r");
        return true;
    case U'\t':
        out += QLatin1String("\\t");
        return true;
    case U'"':
        out += QLatin1String("\\\"");
        return true;
    case U'\\':
        out += QLatin1String("\\\\");
        return true;
    default:
        return false;
    }
}

QString hex(char32_t c, int digits)
{
    return QString::number(std::uint32_t(c), 16).rightJustified(digits, QLatin1Char('0'));
}

QString octal(std::uint8_t byte)
{
    return QLatin1Char('\\') + QString::number(byte, 8).rightJustified(3, QLatin1Char('0'));
}

// By code point: printable ASCII as is, the rest as \xXX (below `hexBelow`), \uXXXX or
// \UXXXXXXXX.
QString byCodePoint(const QString &text, char32_t hexBelow)
{
    QString out = QStringLiteral("\"");
    for (const char32_t c : text.toUcs4()) {
        if (appendCommonEscape(out, c))
            continue;
        if (printable(c))
            out += QChar(char16_t(c));
        else if (c < hexBelow)
            out += QLatin1String("\\x") + hex(c, 2);
        else if (c < 0x10000)
            out += QLatin1String("\\u") + hex(c, 4);
        else
            out += QLatin1String("\\U") + hex(c, 8);
    }
    return out + QLatin1Char('"');
}

} // namespace

QString CodeLiteral::quote(CodeLanguage language, const QString &text)
{
    switch (language) {
    case CodeLanguage::JavaScript:
    case CodeLanguage::Mongosh:
        return javaScript(text);
    case CodeLanguage::Python:
        return python(text);
    case CodeLanguage::Java:
        return java(text);
    case CodeLanguage::Go:
        return go(text);
    case CodeLanguage::C:
        return c(text);
    }
    return javaScript(text);
}

QString CodeLiteral::javaScript(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (const QChar unit : text) {
        if (appendCommonEscape(out, unit.unicode()))
            continue;
        if (printable(unit.unicode()))
            out += unit;
        else
            out += QLatin1String("\\u") + hex(unit.unicode(), 4);
    }
    return out + QLatin1Char('"');
}

QString CodeLiteral::python(const QString &text)
{
    return byCodePoint(text, 0x100);
}

QString CodeLiteral::java(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (const QChar unit : text) {
        if (appendCommonEscape(out, unit.unicode()))
            continue;
        if (printable(unit.unicode()))
            out += unit;
        else if (unit.unicode() < 0x80)
            out += octal(std::uint8_t(unit.unicode()));
        else
            out += QLatin1String("\\u") + hex(unit.unicode(), 4);
    }
    return out + QLatin1Char('"');
}

QString CodeLiteral::go(const QString &text)
{
    return byCodePoint(text, 0x80);
}

QString CodeLiteral::c(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (const char byte : text.toUtf8()) {
        const auto b = std::uint8_t(byte);
        if (appendCommonEscape(out, b))
            continue;
        if (b == '?')
            out += QLatin1String("\\?");
        else if (printable(b))
            out += QLatin1Char(byte);
        else
            out += octal(b);
    }
    return out + QLatin1Char('"');
}

} // namespace oe
