// The generated code for an extracted field (`codegen --extract`, the subset pattern), run for
// real: for each language, its official driver runs the snippet (compiled warning-free where
// the language compiles) against mongod, on a collection `rewrite --extract` has just
// extracted. The read path gives the document back whole (the value from the side collection
// in its place, the flag gone), for an extracted document and an untouched one; the write path
// stores a new value whole in the side collection and leaves its excerpt (of two-byte
// characters, cut by characters) and the flag in the document, which the CLI's verify of the
// extraction does not count against it.
#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CodegenBench.h"
#include "HostileNames.h"
#include "LiveDocuments.h"
#include "codegen/CodeLanguage.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

namespace {

// "<seed>" then `chars` - 1 two-byte characters.
QString text(int chars, QChar seed)
{
    return QString(seed) + QString(chars - 1, QChar(0x436));
}

QString textOf(const QByteArray &raw)
{
    if (raw.size() < 6 || raw.at(0) != char(BSON_TYPE_UTF8))
        return {};
    return QString::fromUtf8(raw.mid(5, raw.size() - 6));
}

// The text at post.body of a document.
QString bodyOf(const QByteArray &doc)
{
    const QByteArray post = fixtures::fieldOf(doc, QStringLiteral("post"));
    return post.isEmpty() ? QString()
                          : textOf(fixtures::fieldOf(post.mid(1), QStringLiteral("body")));
}

QByteArray stringId(const char *id)
{
    QByteArray raw(1, char(BSON_TYPE_UTF8));
    const qint32 length = qint32(qstrlen(id) + 1);
    raw.append(reinterpret_cast<const char *>(&length), 4); // little-endian machines
    raw.append(id, length);
    return raw;
}

} // namespace

class TestCodegenExtract : public QObject, public CodegenBench
{
    Q_OBJECT

    const QString m_db = QStringLiteral("oe_codegen_extract");
    const QString m_big = text(1200, QLatin1Char('A'));

    // The extraction of post.body; `side` and `flag` name its side collection and flag (empty:
    // the defaults).
    QStringList extractArgs(const QString &collection, const QString &side = {},
                            const QString &flag = {}) const
    {
        QStringList args{QStringLiteral("--collection"),    collection,
                         QStringLiteral("--path"),          QStringLiteral("post.body"),
                         QStringLiteral("--excerpt-chars"), QStringLiteral("5"),
                         QStringLiteral("--excerpt-keys"),  QStringLiteral("lang,title"),
                         QStringLiteral("--extract")};
        if (!side.isEmpty())
            args << QStringLiteral("--side") << side;
        if (!flag.isEmpty())
            args << QStringLiteral("--flag") << flag;
        return args;
    }

    // A (a body of 1200 characters, extracted) and B (a short one, left in place).
    void loadAndExtract(const QString &collection, const QString &side = {},
                        const QString &flag = {})
    {
        QString error;
        for (const QString &name :
             QStringList{collection, collection + QStringLiteral("_outlier_rewrites"),
                         side.isEmpty() ? collection + QStringLiteral("_post_body_full") : side})
            fixtures::command(m_uri, m_db,
                              QStringLiteral("{\"drop\": \"%1\"}").arg(jsonText(name)).toUtf8(),
                              &error);
        QVERIFY2(fixtures::command(
                     m_uri, m_db,
                     QStringLiteral(
                         "{\"insert\": \"%1\", \"documents\": [{\"_id\": \"A\", \"post\": "
                         "{\"title\": \"a\", \"body\": \"%2\", \"n\": 1}, \"likes\": 1}, "
                         "{\"_id\": \"B\", \"post\": {\"body\": \"short\"}}, {\"_id\": \"C\", "
                         "\"post\": {}}, {\"_id\": \"D\", \"post\": {}}]}")
                         .arg(jsonText(collection), m_big)
                         .toUtf8(),
                     &error),
                 qPrintable(error));
        const CliRun r =
            runCli(QStringList{QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri,
                               QStringLiteral("--db"), m_db, QStringLiteral("--min-bytes"),
                               QStringLiteral("1000"), QStringLiteral("--yes")} +
                   extractArgs(collection, side, flag));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 1;")),
                 qPrintable(r.out + r.err));
    }
    // A name inside a JSON string: its quotes, backslashes and control characters escaped.
    static QString jsonText(const QString &name)
    {
        const QByteArray quoted = QJsonDocument(QJsonArray{name}).toJson(QJsonDocument::Compact);
        return QString::fromUtf8(quoted.mid(2, quoted.size() - 4));
    }

    QString generate(CodeLanguage language, const QString &collection, const QString &dir,
                     const QString &side = {}, const QString &flag = {})
    {
        QDir().mkpath(dir);
        const QString out =
            QDir(dir).filePath(QStringLiteral("snippet.") + codelanguage::extension(language));
        const CliRun r =
            runCli(QStringList{QStringLiteral("codegen"), QStringLiteral("--lang"),
                               codelanguage::name(language), QStringLiteral("--out"), out} +
                   extractArgs(collection, side, flag));
        if (r.exitCode != 0)
            qWarning("codegen failed: %s", qPrintable(r.err));
        return out;
    }

    static bool build(const QString &program, const QStringList &args, const QString &dir,
                      const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(dir);
        p.start(program, args);
        if (!p.waitForFinished(600000) || p.exitCode() != 0) {
            qWarning("%s failed: %s", qPrintable(program),
                     QByteArray(p.readAllStandardError() + p.readAllStandardOutput()).constData());
            return false;
        }
        return true;
    }

    static QStringList mongocFlags()
    {
        QProcess flags;
        flags.start(QStringLiteral("pkg-config"),
                    {QStringLiteral("--cflags"), QStringLiteral("--libs"),
                     QStringLiteral("libmongoc-1.0")});
        flags.waitForFinished();
        return QString::fromUtf8(flags.readAllStandardOutput())
            .simplified()
            .split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }

    // Builds the language's harness around `snippet` (in its directory) and runs `script`
    // through it: its standard output.
    QString runHarness(CodeLanguage language, const QString &snippet, const QString &script)
    {
        const QString dir = QFileInfo(snippet).absolutePath();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QString program;
        QStringList args;
        switch (language) {
        case CodeLanguage::JavaScript:
            env.insert(QStringLiteral("NODE_PATH"),
                       m_drivers + QStringLiteral("/node/node_modules"));
            program = QStringLiteral("node");
            args = {m_harness + QStringLiteral("/extract-harness.js"), snippet, m_uri, m_db};
            break;
        case CodeLanguage::Python:
            env.insert(QStringLiteral("PYTHONPATH"), m_drivers + QStringLiteral("/python"));
            program = QStringLiteral("python3");
            args = {m_harness + QStringLiteral("/extract-harness.py"), snippet, m_uri, m_db};
            break;
        case CodeLanguage::C:
            if (!build(QStringLiteral("cc"),
                       QStringList{QStringLiteral("-Wall"), QStringLiteral("-Wextra"),
                                   QStringLiteral("-Werror"), QStringLiteral("-o"),
                                   dir + QStringLiteral("/harness"),
                                   m_harness + QStringLiteral("/extract-harness.c"),
                                   QStringLiteral("-I") + dir} +
                           mongocFlags(),
                       dir))
                return {};
            program = dir + QStringLiteral("/harness");
            args = {m_uri, m_db};
            break;
        case CodeLanguage::Java: {
            const QString classpath = m_drivers + QStringLiteral("/java/lib/*");
            QFile::copy(snippet, dir + QStringLiteral("/PostBodyExtracted.java"));
            QFile::copy(m_harness + QStringLiteral("/ExtractHarness.java"),
                        dir + QStringLiteral("/ExtractHarness.java"));
            if (!build(QStringLiteral("javac"),
                       {QStringLiteral("-Xlint:all"), QStringLiteral("-Werror"),
                        QStringLiteral("-cp"), classpath, QStringLiteral("-d"),
                        dir + QStringLiteral("/classes"),
                        dir + QStringLiteral("/ExtractHarness.java"),
                        dir + QStringLiteral("/PostBodyExtracted.java")},
                       dir))
                return {};
            program = QStringLiteral("java");
            args = {QStringLiteral("-cp"), dir + QStringLiteral("/classes:") + classpath,
                    QStringLiteral("ExtractHarness"), m_uri, m_db};
            break;
        }
        case CodeLanguage::Go: {
            const QString module = dir + QStringLiteral("/module");
            QDir().mkpath(module + QStringLiteral("/snippet"));
            for (const QString &f : {QStringLiteral("go.mod"), QStringLiteral("go.sum")})
                QFile::copy(m_drivers + QStringLiteral("/go/") + f, module + QLatin1Char('/') + f);
            QFile::copy(m_harness + QStringLiteral("/extract-harness.go"),
                        module + QStringLiteral("/main.go"));
            QFile::copy(snippet, module + QStringLiteral("/snippet/snippet.go"));
            env.insert(QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod"));
            if (!build(QStringLiteral("go"), {QStringLiteral("vet"), QStringLiteral("./...")},
                       module, env) ||
                !build(QStringLiteral("go"),
                       {QStringLiteral("build"), QStringLiteral("-o"), QStringLiteral("harness"),
                        QStringLiteral(".")},
                       module, env))
                return {};
            program = module + QStringLiteral("/harness");
            args = {m_uri, m_db};
            break;
        }
        case CodeLanguage::Mongosh:
            qFatal("mongosh is not run here");
        }
        return runHarnessProgram(program, args, env, script);
    }

private slots:
    void initTestCase()
    {
        const QString missing = openBench();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // mongosh's snippet parses (it has no server run here: mongosh is not installed).
    void mongoshParses()
    {
        const QString file = generate(CodeLanguage::Mongosh, QStringLiteral("posts"),
                                      m_dir.filePath(QStringLiteral("mongosh")));
        QVERIFY(build(QStringLiteral("node"), {QStringLiteral("--check"), file}, m_dir.path()));
        // With every hostile layout's collection, side collection and flag too.
        int n = 0;
        for (const fixtures::HostileLayout &l : fixtures::hostileLayouts()) {
            const QString hostile =
                generate(CodeLanguage::Mongosh, l.config.collection,
                         m_dir.filePath(QStringLiteral("mongosh_%1").arg(++n)),
                         l.config.collection + QStringLiteral(" side"), l.config.flagField);
            QVERIFY2(
                build(QStringLiteral("node"), {QStringLiteral("--check"), hostile}, m_dir.path()),
                qPrintable(l.tag));
        }
    }

    void readsAndWritesOnTheServer_data()
    {
        QTest::addColumn<int>("language");
        QTest::newRow("js") << int(CodeLanguage::JavaScript);
        QTest::newRow("python") << int(CodeLanguage::Python);
        QTest::newRow("go") << int(CodeLanguage::Go);
        QTest::newRow("c") << int(CodeLanguage::C);
        QTest::newRow("java") << int(CodeLanguage::Java);
    }

    void readsAndWritesOnTheServer()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        const QString collection = QStringLiteral("posts_") + codelanguage::name(lang);
        loadAndExtract(collection);
        const QString written = text(700, QChar(0x401)); // "Ё" then "жжж…"
        const QString snippet =
            generate(lang, collection, m_dir.filePath(codelanguage::name(lang)));
        const QString out = runHarness(lang, snippet,
                                       QStringLiteral("read A\nread B\nwrite B %1\nread B\nread Z\n"
                                                      "writebin C 3000\nwritedoc D\n")
                                           .arg(written));
        QCOMPARE(out.split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("A: %1 -").arg(m_big), QStringLiteral("B: short -"),
                              QStringLiteral("B: %1 -").arg(written), QStringLiteral("Z: none")}));

        // The layout the extraction left: B now like A, its excerpt cut by characters.
        const auto docs = fixtures::readCollection(m_uri, m_db, collection);
        const auto side =
            fixtures::readCollection(m_uri, m_db, collection + QStringLiteral("_post_body_full"));
        QCOMPARE(bodyOf(docs.at(stringId("A"))), m_big.left(5));
        QCOMPARE(bodyOf(docs.at(stringId("B"))), written.left(5));
        QCOMPARE(fixtures::fieldOf(docs.at(stringId("B")), QStringLiteral("has_full_post_body")),
                 QByteArray("\x08\x01", 2));
        QCOMPARE(side.size(), std::size_t(4));
        // A binary keeps an empty one of its subtype; a sub-document its chosen keys, in its
        // own order.
        const auto postOf = [&](const char *id) {
            return fixtures::fieldOf(docs.at(stringId(id)), QStringLiteral("post")).mid(1);
        };
        QCOMPARE(fixtures::fieldOf(postOf("C"), QStringLiteral("body")),
                 QByteArray("\x05\x00\x00\x00\x00\x00", 6));
        QByteArray bytes(3000, '\0');
        for (int i = 0; i < 3000; ++i)
            bytes[i] = char(i % 251);
        const qint32 length = 3000;
        QCOMPARE(fixtures::fieldOf(side.at(stringId("C")), QStringLiteral("body")),
                 QByteArray(1, char(BSON_TYPE_BINARY)) +
                     QByteArray(reinterpret_cast<const char *>(&length), 4) + QByteArray(1, '\0') +
                     bytes);
        QCOMPARE(fixtures::fieldOf(postOf("D"), QStringLiteral("body")),
                 QByteArray(1, char(BSON_TYPE_DOCUMENT)) +
                     fixtures::bson("{\"title\": \"T\", \"lang\": \"ru\"}"));
        QCOMPARE(fixtures::fieldOf(side.at(stringId("D")), QStringLiteral("body")),
                 QByteArray(1, char(BSON_TYPE_DOCUMENT)) +
                     fixtures::bson("{\"title\": \"T\", \"text\": \"long\", \"lang\": \"ru\"}"));
        QCOMPARE(textOf(fixtures::fieldOf(side.at(stringId("A")), QStringLiteral("body"))), m_big);
        QCOMPARE(textOf(fixtures::fieldOf(side.at(stringId("B")), QStringLiteral("body"))),
                 written);
    }

    // Hostile names in every name the extraction's code embeds (issue 53): the collection, the
    // side collection and the flag of each hostile layout (quotes, backslashes, control and
    // line-separator characters, keywords, comment and template delimiters, each language's
    // injection) through the language that layout targets: the code compiles warning-free and
    // runs, reads and writes the collections of exactly those names, and no injection runs
    // (the marker file P is never created).
    void hostileNamesRoundTrip_data()
    {
        QTest::addColumn<int>("language");
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QString>("side");
        QTest::addColumn<QString>("flag");
        const std::pair<const char *, CodeLanguage> targets[] = {
            {"python", CodeLanguage::Python},
            {"js", CodeLanguage::JavaScript},
            {"c", CodeLanguage::C},
            {"java", CodeLanguage::Java},
            {"go and unicode", CodeLanguage::Go}};
        for (const fixtures::HostileLayout &l : fixtures::hostileLayouts())
            for (const auto &[tag, language] : targets)
                if (l.tag == QLatin1String(tag))
                    QTest::newRow(tag) << int(language) << l.config.collection
                                       << (l.config.overflowCollection.isEmpty()
                                               ? l.config.collection + QStringLiteral(" side")
                                               : l.config.overflowCollection)
                                       << l.config.flagField;
    }
    void hostileNamesRoundTrip()
    {
        QFETCH(int, language);
        QFETCH(QString, collection);
        QFETCH(QString, side);
        QFETCH(QString, flag);
        const auto lang = CodeLanguage(language);
        loadAndExtract(collection, side, flag);
        const QString dir = m_dir.filePath(QStringLiteral("hostile_") + codelanguage::name(lang));
        const QString snippet = generate(lang, collection, dir, side, flag);
        const QString written = text(700, QChar(0x401));
        const QString out = runHarness(
            lang, snippet, QStringLiteral("read A\nread B\nwrite B %1\nread B\n").arg(written));
        QCOMPARE(out.split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("A: %1 -").arg(m_big), QStringLiteral("B: short -"),
                              QStringLiteral("B: %1 -").arg(written)}));
        const auto docs = fixtures::readCollection(m_uri, m_db, collection);
        const auto stored = fixtures::readCollection(m_uri, m_db, side);
        QCOMPARE(stored.size(), std::size_t(2)); // A's value by the extraction, B's by the code
        QCOMPARE(textOf(fixtures::fieldOf(stored.at(stringId("B")), QStringLiteral("body"))),
                 written);
        QCOMPARE(fixtures::fieldOf(docs.at(stringId("B")), flag), QByteArray("\x08\x01", 2));
        for (const QString &where : {QDir::currentPath(), dir, QFileInfo(snippet).absolutePath()})
            QVERIFY2(!QFileInfo::exists(where + QStringLiteral("/P")),
                     "an injection ran: the marker file P was created");
    }
};

QTEST_GUILESS_MAIN(TestCodegenExtract)
#include "tst_codegenextract.moc"
