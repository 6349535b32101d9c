// The generated code for the attribute array (`codegen --attributes`), run for real: for
// Python and Node.js, the official driver runs the snippet against mongod on a catalogue
// `rewrite --attributes` has just rewritten. The read path gives each product its attributes
// as fields again (their values and types as they were); the lookup finds a product by one
// attribute; the writes set an attribute in its place, add a new one last and take one out,
// which the collection then holds. mongosh's snippet parses. Languages without a template are
// refused in one line.
#include "CatalogDocuments.h"
#include "CliRunner.h"
#include "CodegenBench.h"
#include "LiveDocuments.h"
#include "codegen/CodeIdentifier.h"
#include "codegen/CodeLanguage.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

namespace {

// An attribute's value in product `i` as JSON (CatalogDocuments: typed by its number).
QString valueJson(const QString &name, int i)
{
    const int k = name.startsWith(QLatin1String("attr_")) ? name.mid(5).toInt() : 7;
    switch (k % 4) {
    case 0:
        return QStringLiteral("\"v%1\"").arg(i);
    case 1:
        return QStringLiteral("%1.5").arg(i);
    case 2:
        return QString::number(i);
    default:
        return i % 2 ? QStringLiteral("true") : QStringLiteral("false");
    }
}

// The first of the top-level key names of each {k, v} element of `doc`.attrs.
QStringList attributeNames(const QByteArray &doc)
{
    QStringList names;
    for (const QByteArray &e : fixtures::elementsOf(doc, QStringLiteral("attrs")))
        names << QString::fromUtf8(
            fixtures::fieldOf(e.mid(1), QStringLiteral("k")).mid(5).chopped(1));
    return names;
}

} // namespace

class TestCodegenAttributes : public QObject, public CodegenBench
{
    Q_OBJECT

    const QString m_db = QStringLiteral("oe_codegen_attributes");

    void loadAndRewrite(const QString &collection)
    {
        QString error;
        for (const QString &name :
             QStringList{collection, collection + QStringLiteral("_outlier_rewrites")})
            fixtures::command(m_uri, m_db, QStringLiteral("{\"drop\": \"%1\"}").arg(name).toUtf8(),
                              &error);
        QVERIFY2(fixtures::command(m_uri, m_db,
                                   QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                                       .arg(collection, fixtures::catalogueJson(40).join(u','))
                                       .toUtf8(),
                                   &error),
                 qPrintable(error));
        const CliRun r =
            runCli({QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri,
                    QStringLiteral("--db"), m_db, QStringLiteral("--collection"), collection,
                    QStringLiteral("--attributes"), QStringLiteral("--fields"),
                    fixtures::catalogueFields().join(QLatin1Char(',')), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 40;")),
                 qPrintable(r.out + r.err));
    }

    CliRun generate(CodeLanguage language, const QString &collection, const QString &out)
    {
        return runCli({QStringLiteral("codegen"), QStringLiteral("--attributes"),
                       QStringLiteral("--lang"), codelanguage::name(language),
                       QStringLiteral("--collection"), collection, QStringLiteral("--out"), out});
    }

    // Runs `script` through the language's harness around `snippet`: its standard output.
    QString runHarness(CodeLanguage language, const QString &snippet, const QString &collection,
                       const QString &script)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QString program;
        QStringList args;
        const QString stem = collection + QStringLiteral("_attrs");
        if (language == CodeLanguage::JavaScript) {
            env.insert(QStringLiteral("NODE_PATH"),
                       m_drivers + QStringLiteral("/node/node_modules"));
            program = QStringLiteral("node");
            args = {m_harness + QStringLiteral("/attributes-harness.js"), snippet, m_uri, m_db,
                    CodeIdentifier::derive(stem, CodeIdentifier::Style::UpperCamel)};
        } else {
            env.insert(QStringLiteral("PYTHONPATH"), m_drivers + QStringLiteral("/python"));
            program = QStringLiteral("python3");
            args = {m_harness + QStringLiteral("/attributes-harness.py"), snippet, m_uri, m_db,
                    stem};
        }
        return runHarnessProgram(program, args, env, script);
    }

    // What the read path prints for product `i` with its attributes `names`.
    static QString readLine(int i, const QStringList &names,
                            const QHash<QString, QString> &changed = {})
    {
        QStringList fields{QStringLiteral("name=\"p%1\"").arg(i),
                           QStringLiteral("price=%1").arg(i * 2 + 1),
                           QStringLiteral("tail={\"stock\":%1}").arg(i)};
        for (const QString &name : names)
            fields << name + QLatin1Char('=') + changed.value(name, valueJson(name, i));
        return QStringLiteral("%1: %2").arg(i).arg(fields.join(QLatin1Char(' ')));
    }

private slots:
    void initTestCase()
    {
        const QString missing = openBench();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void mongoshParsesAndOthersAreRefused()
    {
        const QString file = m_dir.filePath(QStringLiteral("snippet-mongosh.js"));
        QCOMPARE(generate(CodeLanguage::Mongosh, QStringLiteral("catalogue"), file).exitCode, 0);
        QProcess check;
        check.start(QStringLiteral("node"), {QStringLiteral("--check"), file});
        QVERIFY(check.waitForFinished(60000) && check.exitCode() == 0);
        const CliRun go = generate(CodeLanguage::Go, QStringLiteral("catalogue"),
                                   m_dir.filePath(QStringLiteral("snippet.go")));
        QCOMPARE(go.exitCode, 2);
        QCOMPARE(go.err.trimmed(), QStringLiteral("outlier-explorer-cli: codegen --attributes "
                                                  "writes js, python and mongosh, not go"));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("snippet.go"))));
    }

    void readsAndWritesOnTheServer_data()
    {
        QTest::addColumn<int>("language");
        QTest::newRow("js") << int(CodeLanguage::JavaScript);
        QTest::newRow("python") << int(CodeLanguage::Python);
    }

    void readsAndWritesOnTheServer()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        const QString collection = QStringLiteral("catalogue_") + codelanguage::name(lang);
        loadAndRewrite(collection);
        const QString snippet =
            m_dir.filePath(collection + QLatin1Char('.') + codelanguage::extension(lang));
        const CliRun generated = generate(lang, collection, snippet);
        QVERIFY2(generated.exitCode == 0, qPrintable(generated.err));
        const QStringList names = fixtures::catalogueFieldsOf(1);
        const QString script =
            QStringLiteral("read 1\nread 2\nfind %1 %2\nset 1 %1 \"x\"\nset 1 colour \"red\"\n"
                           "unset 1 %3\nread 1\nread 999\n")
                .arg(names[0], valueJson(names[0], 1), names[1]);
        const QString out = runHarness(lang, snippet, collection, script);
        QStringList after = names;
        after.removeAt(1);
        after << QStringLiteral("colour");
        QCOMPARE(out.split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 QStringList({readLine(1, names), readLine(2, fixtures::catalogueFieldsOf(2)),
                              QStringLiteral("find: 1"),
                              readLine(1, after,
                                       {{names[0], QStringLiteral("\"x\"")},
                                        {QStringLiteral("colour"), QStringLiteral("\"red\"")}}),
                              QStringLiteral("999: none")}));
        // The collection holds the writes: the first attribute in its place, the new one last.
        for (const auto &[id, doc] : fixtures::readCollection(m_uri, m_db, collection))
            if (fixtures::numberOf(doc, QStringLiteral("_id")) == 1)
                QCOMPARE(attributeNames(doc), after);
    }
};

QTEST_GUILESS_MAIN(TestCodegenAttributes)
#include "tst_codegenattributes.moc"
