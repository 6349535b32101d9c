#include "codegen/CodeIdentifier.h"

#include <QCryptographicHash>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace oe {

namespace {

QStringList words(const QString &name)
{
    static const QRegularExpression separator(QStringLiteral("[^A-Za-z0-9]+"));
    return name.split(separator, Qt::SkipEmptyParts);
}

QString joined(const QString &name, CodeIdentifier::Style style)
{
    QString out;
    for (const QString &w : words(name)) {
        if (style == CodeIdentifier::Style::UpperCamel) {
            out += w.left(1).toUpper() + w.mid(1);
            continue;
        }
        QString part;
        for (const QChar c : w) {
            if (c.isUpper() && !part.isEmpty() && !part.back().isUpper())
                part += QLatin1Char('_');
            part += c.toLower();
        }
        if (style == CodeIdentifier::Style::Lower)
            part.remove(QLatin1Char('_'));
        else if (!out.isEmpty())
            out += QLatin1Char('_');
        out += part;
    }
    return out;
}

QString hashOf(const QString &name)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha1).toHex().left(8));
}

// Keywords and words a generated identifier may not be on its own (literals, predeclared
// names that cannot be redeclared, Go's special package names).
QStringList reserved(CodeLanguage language)
{
    switch (language) {
    case CodeLanguage::JavaScript:
    case CodeLanguage::Mongosh:
        return QStringLiteral(
                   "await break case catch class const continue debugger default delete do else "
                   "enum export extends false finally for function if implements import in "
                   "instanceof interface let new null package private protected public return "
                   "static super switch this throw true try typeof var void while with yield "
                   "arguments eval undefined NaN Infinity async of get set db")
            .split(QLatin1Char(' '));
    case CodeLanguage::Python:
        return QStringLiteral(
                   "False None True and as assert async await break class continue def del elif "
                   "else except finally for from global if import in is lambda nonlocal not or "
                   "pass raise return try while with yield match case type print")
            .split(QLatin1Char(' '));
    case CodeLanguage::Java:
        return QStringLiteral(
                   "abstract assert boolean break byte case catch char class const continue "
                   "default do double else enum extends final finally float for goto if "
                   "implements import instanceof int interface long native new package private "
                   "protected public return short static strictfp super switch synchronized this "
                   "throw throws transient try void volatile while true false null var yield "
                   "record sealed permits when module open exports requires")
            .split(QLatin1Char(' '));
    case CodeLanguage::Go:
        return QStringLiteral(
                   "break case chan const continue default defer else fallthrough for func go "
                   "goto if import interface map package range return select struct switch type "
                   "var main init true false nil iota any bool byte error string int rune")
            .split(QLatin1Char(' '));
    case CodeLanguage::C:
        return QStringLiteral(
                   "auto break case char const continue default do double else enum extern float "
                   "for goto if inline int long register restrict return short signed sizeof "
                   "static struct switch typedef union unsigned void volatile while bool true "
                   "false alignas alignof constexpr nullptr static_assert thread_local typeof "
                   "typeof_unqual main")
            .split(QLatin1Char(' '));
    }
    return {};
}

} // namespace

QString CodeIdentifier::derive(const QString &name, Style style)
{
    QString out = joined(name, style);
    bool hashed = out.isEmpty(); // nothing ASCII in it: keep different names apart
    if (hashed)
        out = style == Style::UpperCamel ? QStringLiteral("Items") : QStringLiteral("items");
    if (out.front().isDigit())
        out.prepend(style == Style::UpperCamel ? QLatin1Char('N') : QLatin1Char('n'));
    const QString separator = style == Style::Snake ? QStringLiteral("_") : QString();
    if (out.size() > kMaxLength) {
        out.truncate(kMaxLength - 8 - separator.size());
        hashed = true;
    }
    if (hashed)
        out += separator + hashOf(name);
    return out;
}

QString CodeIdentifier::derive(const QString &name, Style style, CodeLanguage language)
{
    const QString out = derive(name, style);
    return isReserved(out, language) ? out + QLatin1Char('_') : out;
}

bool CodeIdentifier::isReserved(const QString &word, CodeLanguage language)
{
    static const auto sets = [] {
        QHash<int, QSet<QString>> out;
        for (const CodeLanguage l :
             {CodeLanguage::JavaScript, CodeLanguage::Mongosh, CodeLanguage::Python,
              CodeLanguage::Java, CodeLanguage::Go, CodeLanguage::C}) {
            const QStringList words = reserved(l);
            out.insert(int(l), QSet<QString>(words.cbegin(), words.cend()));
        }
        return out;
    }();
    return sets.value(int(language)).contains(word);
}

} // namespace oe
