// Identifiers derived from names (CodeIdentifier): for every hostile name, style and language,
// only [A-Za-z0-9_], a letter first, at most 64 characters, never empty, never a keyword, the
// same every time; distinct names that lose everything or are cut keep distinct identifiers.
// Generated file names are built from them, so they are always usable paths.
#include "HostileNames.h"
#include "codegen/CodeGenerator.h"
#include "codegen/CodeIdentifier.h"

#include <QRegularExpression>
#include <QtTest>

using namespace oe;

class TestCodeIdentifier : public QObject
{
    Q_OBJECT

private slots:
    void safeForEveryLanguage_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto &[tag, name] : fixtures::hostileNames())
            QTest::newRow(qPrintable(tag)) << name;
    }

    void safeForEveryLanguage()
    {
        QFETCH(QString, name);
        static const QRegularExpression identifier(QStringLiteral("^[A-Za-z][A-Za-z0-9_]*$"));
        for (const auto style : {CodeIdentifier::Style::UpperCamel, CodeIdentifier::Style::Snake,
                                 CodeIdentifier::Style::Lower}) {
            for (const CodeLanguage language :
                 {CodeLanguage::JavaScript, CodeLanguage::Python, CodeLanguage::Java,
                  CodeLanguage::Go, CodeLanguage::C, CodeLanguage::Mongosh}) {
                const QString id = CodeIdentifier::derive(name, style, language);
                QVERIFY2(identifier.match(id).hasMatch(), qPrintable(id));
                QVERIFY2(id.size() <= CodeIdentifier::kMaxLength + 1, qPrintable(id));
                QVERIFY2(!CodeIdentifier::isReserved(id, language), qPrintable(id));
                QCOMPARE(CodeIdentifier::derive(name, style, language), id);
            }
            QVERIFY(CodeIdentifier::derive(name, style).size() <= CodeIdentifier::kMaxLength);
        }
        SplitConfig c;
        c.collection = name;
        c.field = name;
        for (const CodeLanguage language : {CodeLanguage::JavaScript, CodeLanguage::Java}) {
            const QString file = CodeGenerator::fileName(language, c);
            QVERIFY2(file.size() <= 2 * CodeIdentifier::kMaxLength + 8, qPrintable(file));
            QVERIFY(QRegularExpression(QStringLiteral("^[A-Za-z][A-Za-z0-9_]*\\.[a-z]+$"))
                        .match(file)
                        .hasMatch());
        }
    }

    void knownIdentifiers_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("style");
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("identifier");
        using S = CodeIdentifier::Style;
        const auto row = [](const char *tag, const char *name, S style, CodeLanguage language,
                            const char *id) {
            QTest::newRow(tag) << QString::fromUtf8(name) << int(style) << int(language)
                               << QString::fromLatin1(id);
        };
        row("camel", "customers_purchased", S::UpperCamel, CodeLanguage::Java,
            "CustomersPurchased");
        row("snake", "customersPurchased", S::Snake, CodeLanguage::C, "customers_purchased");
        row("dotted", "stats.history", S::UpperCamel, CodeLanguage::Go, "StatsHistory");
        row("hyphen", "my-items", S::Snake, CodeLanguage::Python, "my_items");
        row("leading digit", "1st", S::UpperCamel, CodeLanguage::Java, "N1st");
        row("go package keyword", "func", S::Lower, CodeLanguage::Go, "func_");
        row("go package main", "main", S::Lower, CodeLanguage::Go, "main_");
        row("go package digit", "1st", S::Lower, CodeLanguage::Go, "n1st");
        row("python keyword", "None", S::UpperCamel, CodeLanguage::Python, "None_");
        row("java keyword", "class", S::Snake, CodeLanguage::Java, "class_");
        row("c keyword", "int", S::Snake, CodeLanguage::C, "int_");
        row("js keyword", "default", S::Lower, CodeLanguage::JavaScript, "default_");
    }

    void knownIdentifiers()
    {
        QFETCH(QString, name);
        QFETCH(int, style);
        QFETCH(int, language);
        QFETCH(QString, identifier);
        QCOMPARE(CodeIdentifier::derive(name, CodeIdentifier::Style(style), CodeLanguage(language)),
                 identifier);
    }

    // Names with nothing ASCII, and long names that share their first 64 characters, stay apart.
    void distinctNamesStayApart()
    {
        using S = CodeIdentifier::Style;
        for (const auto style : {S::UpperCamel, S::Snake, S::Lower}) {
            QVERIFY(CodeIdentifier::derive(QString::fromUtf16(u"\u4e2d\u6587"), style) !=
                    CodeIdentifier::derive(QString::fromUtf16(u"\U0001F600"), style));
            const QString a(5000, QLatin1Char('x'));
            const QString b = a + QLatin1Char('y');
            QVERIFY(CodeIdentifier::derive(a, style) != CodeIdentifier::derive(b, style));
            QCOMPARE(CodeIdentifier::derive(a, style).size(), CodeIdentifier::kMaxLength);
        }
    }
};

QTEST_GUILESS_MAIN(TestCodeIdentifier)
#include "tst_codeidentifier.moc"
