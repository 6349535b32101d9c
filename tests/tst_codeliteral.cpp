// Each generated language's string literal of a name (CodeLiteral): for every hostile name, the
// literal is one line of printable ASCII between double quotes, holds nothing its language
// would read as the end of the literal or of a comment (no bare quote, no trigraph, no Java
// \u escape of a quote or line break), and decodes, by the language's own escape rules
// (implemented independently here), to exactly the name. The live test tst_codegenescape runs
// the literals through the real compilers and interpreters.
#include "HostileNames.h"
#include "codegen/CodeGenerator.h"
#include "codegen/CodeLiteral.h"

#include <QtTest>

using namespace oe;

namespace {

const CodeLanguage kLanguages[] = {CodeLanguage::JavaScript, CodeLanguage::Python,
                                   CodeLanguage::Java, CodeLanguage::Go, CodeLanguage::C};

// How each language reads one escape: which escapes exist, and whether their values are UTF-16
// units (JavaScript, Java), code points (Python, Go \u) or bytes (C, Go \x).
struct Reader
{
    QByteArray bytes; // pending UTF-8 bytes (C, Go \x)
    QString out;

    void flush()
    {
        out += QString::fromUtf8(bytes);
        bytes.clear();
    }
    void unit(char32_t c) { flush(), out += QChar(char16_t(c)); }
    void codePoint(char32_t c) { flush(), out += QString::fromUcs4(&c, 1); }
};

// The value of `literal` as `language` reads it; a null string when it is not a well-formed
// literal (an unknown escape, a bare quote inside, a missing closing quote).
QString decode(CodeLanguage language, const QString &literal)
{
    if (literal.size() < 2 || !literal.startsWith(QLatin1Char('"')) ||
        !literal.endsWith(QLatin1Char('"')))
        return {};
    const QString body = literal.mid(1, literal.size() - 2);
    const bool bytesLanguage = language == CodeLanguage::C;
    Reader r;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const QChar ch = body[i];
        if (ch == QLatin1Char('"'))
            return {};
        if (ch != QLatin1Char('\\')) {
            if (bytesLanguage)
                r.bytes += ch.toLatin1();
            else
                r.unit(ch.unicode());
            continue;
        }
        if (++i >= body.size())
            return {};
        const QChar e = body[i];
        const auto hexAt = [&](int digits) -> qint64 {
            bool ok = false;
            const uint v = body.mid(i + 1, digits).toUInt(&ok, 16);
            if (!ok || body.mid(i + 1, digits).size() != digits)
                return -1;
            i += digits;
            return v;
        };
        switch (e.unicode()) {
        case 'n':
            r.unit('\n');
            break;
        case 'r':
            r.unit('\r');
            break;
        case 't':
            r.unit('\t');
            break;
        case '"':
        case '\\':
            r.unit(e.unicode());
            break;
        case '?':
            if (language != CodeLanguage::C)
                return {};
            r.bytes += '?';
            break;
        case 'x': {
            if (language == CodeLanguage::Java || language == CodeLanguage::C)
                return {}; // C's \x would swallow following hex digits: never emitted
            const qint64 v = hexAt(2);
            if (v < 0)
                return {};
            if (language == CodeLanguage::Go)
                r.bytes += char(v);
            else
                r.codePoint(char32_t(v));
            break;
        }
        case 'u':
        case 'U': {
            if (language == CodeLanguage::C ||
                (e == QLatin1Char('U') &&
                 (language == CodeLanguage::JavaScript || language == CodeLanguage::Java)))
                return {};
            const qint64 v = hexAt(e == QLatin1Char('u') ? 4 : 8);
            if (v < 0)
                return {};
            // Python and Go read code points: a surrogate there is an error or a wrong value.
            const bool unitLanguage =
                language == CodeLanguage::JavaScript || language == CodeLanguage::Java;
            if (!unitLanguage && v >= 0xd800 && v < 0xe000)
                return {};
            if (unitLanguage)
                r.unit(char32_t(v));
            else
                r.codePoint(char32_t(v));
            break;
        }
        default:
            if (e.isDigit() && (language == CodeLanguage::C || language == CodeLanguage::Java)) {
                // Octal: exactly three digits are emitted, so the next character is not read.
                const QString digits = body.mid(i, 3);
                bool ok = false;
                const uint v = digits.toUInt(&ok, 8);
                if (!ok || digits.size() != 3 || v > 0377)
                    return {};
                i += 2;
                if (language == CodeLanguage::C)
                    r.bytes += char(v);
                else
                    r.unit(char32_t(v));
                break;
            }
            return {};
        }
    }
    r.flush();
    return r.out;
}

} // namespace

class TestCodeLiteral : public QObject
{
    Q_OBJECT

private slots:
    void roundTrips_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("name");
        for (const CodeLanguage language : kLanguages)
            for (const auto &[tag, name] : fixtures::hostileNames())
                QTest::newRow(qPrintable(codelanguage::name(language) + QLatin1Char(' ') + tag))
                    << int(language) << name;
    }

    void roundTrips()
    {
        QFETCH(int, language);
        QFETCH(QString, name);
        const auto lang = CodeLanguage(language);
        const QString literal = CodeLiteral::quote(lang, name);
        for (const QChar c : literal)
            QVERIFY2(c.unicode() >= 0x20 && c.unicode() < 0x7f, qPrintable(literal));
        QCOMPARE(decode(lang, literal), name);
        if (lang == CodeLanguage::C)
            QVERIFY2(!literal.contains(QStringLiteral("??")), qPrintable(literal)); // trigraphs
        if (lang == CodeLanguage::Java) {
            // javac turns \uXXXX into characters before it reads literals or comments: an
            // escape may only stand for a character that is harmless anywhere.
            static const QRegularExpression unicode(QStringLiteral("(\\\\+)u([0-9a-fA-F]{4})"));
            for (auto it = unicode.globalMatch(literal); it.hasNext();) {
                const auto m = it.next();
                if (m.capturedLength(1) % 2 == 1)
                    QVERIFY2(m.captured(2).toUInt(nullptr, 16) >= 0x80, qPrintable(literal));
            }
        }
        QCOMPARE(CodeLiteral::quote(lang, name), literal); // stable
    }

    void knownLiterals_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("literal");
        const auto row = [](const char *tag, CodeLanguage l, const QString &name,
                            const char *literal) {
            QTest::newRow(tag) << int(l) << name << QString::fromLatin1(literal);
        };
        row("js plain", CodeLanguage::JavaScript, QStringLiteral("books"), "\"books\"");
        row("js quote", CodeLanguage::JavaScript, QStringLiteral("a\"b'c"), "\"a\\\"b'c\"");
        row("js template", CodeLanguage::JavaScript, QStringLiteral("${x}"), "\"${x}\"");
        row("js line separator", CodeLanguage::JavaScript, QString::fromUtf16(u"a\u2028"),
            "\"a\\u2028\"");
        row("js emoji", CodeLanguage::JavaScript, QString::fromUtf16(u"\U0001F600"),
            "\"\\ud83d\\ude00\"");
        row("python emoji", CodeLanguage::Python, QString::fromUtf16(u"\U0001F600"),
            "\"\\U0001f600\"");
        row("python latin", CodeLanguage::Python, QString::fromUtf16(u"\u00e9"), "\"\\xe9\"");
        row("python newline", CodeLanguage::Python, QStringLiteral("a\nb"), "\"a\\nb\"");
        row("java control", CodeLanguage::Java,
            QStringLiteral("a\x01"
                           "b"),
            "\"a\\001b\"");
        row("java unicode text", CodeLanguage::Java, QStringLiteral("\\u0022"), "\"\\\\u0022\"");
        row("java emoji", CodeLanguage::Java, QString::fromUtf16(u"\U0001F600"),
            "\"\\ud83d\\ude00\"");
        row("go emoji", CodeLanguage::Go, QString::fromUtf16(u"\U0001F600"), "\"\\U0001f600\"");
        row("go control", CodeLanguage::Go, QStringLiteral("\x7f"), "\"\\x7f\"");
        row("c utf8 then hex digits", CodeLanguage::C, QString::fromUtf16(u"\u00e9AB"),
            "\"\\303\\251AB\"");
        row("c trigraph", CodeLanguage::C, QStringLiteral("?\?="), "\"\\?\\?=\"");
        row("c comment end", CodeLanguage::C, QStringLiteral("*/"), "\"*/\"");
    }

    void knownLiterals()
    {
        QFETCH(int, language);
        QFETCH(QString, name);
        QFETCH(QString, literal);
        QCOMPARE(CodeLiteral::quote(CodeLanguage(language), name), literal);
    }

    // Keep and page size: every language holds up to CodeGenerator::kMaxNumber exactly; the
    // generator refuses more, and writes 64-bit numbers where the language has a choice.
    void numbersInRange()
    {
        SplitConfig c;
        c.collection = QStringLiteral("books");
        c.field = QStringLiteral("sales");
        c.keep = 2147483648;
        c.pageSize = CodeGenerator::kMaxNumber;
        QVERIFY(CodeGenerator::problems(c).isEmpty());
        QVERIFY(CodeGenerator::generate(CodeLanguage::Java, c)
                    .contains(QStringLiteral("long KEEP = 2147483648L;")));
        QVERIFY(CodeGenerator::generate(CodeLanguage::C, c)
                    .contains(QStringLiteral("INT64_C (2147483648)")));
        c.keep = CodeGenerator::kMaxNumber + 1;
        QCOMPARE(CodeGenerator::problems(c).size(), 1);
        c.keep = 2;
        c.pageSize = std::numeric_limits<std::int64_t>::max();
        QCOMPARE(CodeGenerator::problems(c).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCodeLiteral)
#include "tst_codeliteral.moc"
