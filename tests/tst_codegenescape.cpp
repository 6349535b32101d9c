// Hostile names through generated code, for real: for every language, layouts whose every name
// (collection, overflow collection, array path, link, page, items, flag, count, pages) is a
// legal name that breaks code pasting it into source text (quotes, backslashes, control
// characters, comment delimiters, keywords, leading digits, non-ASCII, 5,000 characters, each
// language's injection) are generated, compiled warning-free, and run with the language's
// official driver against mongod. No injected side effect may happen (the marker file P is
// never created), and the elements land in the collections and fields with exactly those
// names (read back here with libmongoc), each once and in order. Compilation is batched (one
// javac, one Go build) so the matrix stays fast. mongosh is not installed: its snippet runs
// under Node with a recording stand-in for `db`, which checks the names it is called with.
#include "CodegenBench.h"
#include "HostileNames.h"
#include "LiveDocuments.h"
#include "codegen/CodeGenerator.h"
#include "codegen/CodeTemplate.h"

#include <mongoc/mongoc.h>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QString &program, const QStringList &args, const QString &cwd,
        const QProcessEnvironment &env, const QString &input = {})
{
    QProcess p;
    p.setWorkingDirectory(cwd);
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.write(input.toUtf8());
    p.closeWriteChannel();
    Run r;
    if (!p.waitForFinished(600000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError()).left(4000);
    return r;
}

bool writeText(const QString &path, const QString &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

// What the harness is told and what it must print: A gets 2..6, B (no array yet) 1..3.
const QString kScript = QStringLiteral("index\nappend A 2\nappend A 3\nappend A 4\nappend A 5\n"
                                       "append A 6\nappend B 1\nappend B 2\nappend B 3\n"
                                       "all A\nall B\nread A 1 4\n");
const QStringList kOutput{QStringLiteral("A: 1,2,3,4,5,6"), QStringLiteral("B: 1,2,3"),
                          QStringLiteral("A: 2,3,4,5")};

// The path's elements' n values, or {-1} when the path does not lead to an array.
QList<std::int64_t> numbersAt(QByteArray doc, const QStringList &path)
{
    for (qsizetype i = 0; i + 1 < path.size(); ++i) {
        const QByteArray v = fixtures::fieldOf(doc, path[i]);
        if (v.isEmpty() || v.front() != char(BSON_TYPE_DOCUMENT))
            return {-1};
        doc = v.mid(1);
    }
    if (fixtures::fieldOf(doc, path.last()).isEmpty())
        return {-1};
    QList<std::int64_t> out;
    for (const QByteArray &e : fixtures::elementsOf(doc, path.last()))
        out << fixtures::numberOf(e.mid(1), QStringLiteral("n"));
    return out;
}

QList<std::int64_t> range(std::int64_t from, std::int64_t to)
{
    QList<std::int64_t> out;
    for (std::int64_t n = from; n <= to; ++n)
        out << n;
    return out;
}

QString describe(const QList<std::int64_t> &numbers)
{
    QStringList out;
    for (const std::int64_t n : numbers)
        out << QString::number(n);
    return QLatin1Char('[') + out.join(QLatin1Char(',')) + QLatin1Char(']');
}

} // namespace

class TestCodegenEscape : public QObject, public CodegenBench
{
    Q_OBJECT

    QString m_run; // every generated program runs here: an injection would create m_run/P
    QList<fixtures::HostileLayout> m_layouts;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("NODE_PATH"), m_drivers + QStringLiteral("/node/node_modules"));
        env.insert(QStringLiteral("PYTHONPATH"), m_drivers + QStringLiteral("/python"));
        env.insert(QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod"));
        return env;
    }

    static QString database(CodeLanguage language)
    {
        return QStringLiteral("oe_escape_") + codelanguage::name(language);
    }

    static QString nameOf(const SplitConfig &c, const char *key)
    {
        return CodeTemplate::names(c).value(QString::fromLatin1(key));
    }

    QString layoutDir(CodeLanguage language, qsizetype i) const
    {
        return m_dir.filePath(QStringLiteral("%1/%2").arg(codelanguage::name(language)).arg(i));
    }

    // A {_id: "A", <path>: [{n: 1}, ...]} (the head) and B {_id: "B"}; `fresh` drops the
    // database first.
    QString seed(const QString &db, const fixtures::HostileLayout &layout, bool fresh) const
    {
        const SplitConfig c = layout.config.withDefaults();
        mongoc_client_t *client = mongoc_client_new(qPrintable(m_uri));
        mongoc_database_t *database = mongoc_client_get_database(client, qPrintable(db));
        if (fresh)
            mongoc_database_drop(database, nullptr);
        const QByteArray name = c.collection.toUtf8();
        mongoc_collection_t *coll = mongoc_database_get_collection(database, name.constData());
        bson_t a = BSON_INITIALIZER, b = BSON_INITIALIZER;
        BSON_APPEND_UTF8(&a, "_id", "A");
        BSON_APPEND_UTF8(&b, "_id", "B");
        appendPath(&a, c.pathSegments(), layout.headLength);
        bson_error_t error;
        const bool ok = mongoc_collection_insert_one(coll, &a, nullptr, nullptr, &error) &&
                        mongoc_collection_insert_one(coll, &b, nullptr, nullptr, &error);
        bson_destroy(&a);
        bson_destroy(&b);
        mongoc_collection_destroy(coll);
        mongoc_database_destroy(database);
        mongoc_client_destroy(client);
        return ok ? QString() : QString::fromUtf8(error.message);
    }

    static void appendPath(bson_t *parent, const QStringList &path, int length)
    {
        const QByteArray key = path.first().toUtf8();
        bson_t child;
        if (path.size() > 1) {
            bson_append_document_begin(parent, key.constData(), int(key.size()), &child);
            appendPath(&child, path.mid(1), length);
            bson_append_document_end(parent, &child);
            return;
        }
        bson_append_array_begin(parent, key.constData(), int(key.size()), &child);
        for (int i = 0; i < length; ++i) {
            bson_t element;
            const QByteArray index = QByteArray::number(i);
            bson_append_document_begin(&child, index.constData(), int(index.size()), &element);
            BSON_APPEND_INT32(&element, "n", i + 1);
            bson_append_document_end(&child, &element);
        }
        bson_append_array_end(parent, &child);
    }

    // What the server holds after the script, read with libmongoc under the exact names: the
    // first `keep` elements in the document, the rest in pages of `pageSize`, the flag and
    // counters right. Empty when it is all as it should be.
    QString checkServer(const QString &db, const fixtures::HostileLayout &layout) const
    {
        const SplitConfig c = layout.config.withDefaults();
        const auto docs = fixtures::readCollection(m_uri, db, c.collection);
        const auto pages = fixtures::readCollection(m_uri, db, c.overflowCollection);
        QStringList problems;
        const std::pair<const char *, std::int64_t> expected[] = {{"A", 6}, {"B", 3}};
        for (const auto &[id, total] : expected) {
            const QByteArray idValue =
                QByteArray(1, char(BSON_TYPE_UTF8)) + QByteArray::fromHex("02000000") + id + '\0';
            const auto doc = docs.find(idValue);
            if (doc == docs.end()) {
                problems << QStringLiteral("%1 is not in the collection").arg(QLatin1String(id));
                continue;
            }
            const std::int64_t inDoc = std::min<std::int64_t>(c.keep, total);
            const QList<std::int64_t> head = numbersAt(doc->second, c.pathSegments());
            if (head != range(1, inDoc))
                problems << QStringLiteral("%1's array: %2").arg(QLatin1String(id), describe(head));
            QMap<std::int64_t, QList<std::int64_t>> byPage;
            for (const auto &[pageId, page] : pages)
                if (fixtures::fieldOf(page, c.linkField) == idValue)
                    byPage[fixtures::numberOf(page, c.pageField)] = numbersAt(page, {c.itemsField});
            QList<std::int64_t> rest;
            for (auto it = byPage.cbegin(); it != byPage.cend(); ++it)
                rest += it.key() == std::distance(byPage.cbegin(), it) ? it.value()
                                                                       : QList<std::int64_t>{-1};
            const std::int64_t moved = total - inDoc;
            const std::int64_t pageCount = (moved + c.pageSize - 1) / c.pageSize;
            if (rest != range(inDoc + 1, total) || byPage.size() != pageCount)
                problems << QStringLiteral("%1's pages: %2").arg(QLatin1String(id), describe(rest));
            const bool flagged = !fixtures::fieldOf(doc->second, c.flagField).isEmpty();
            if (flagged != (moved > 0))
                problems << QStringLiteral("%1's flag: %2").arg(QLatin1String(id)).arg(flagged);
            const std::int64_t count = fixtures::numberOf(doc->second, c.countField);
            if (count != total) // the write path counts every element it appends
                problems << QStringLiteral("%1's count: %2").arg(QLatin1String(id)).arg(count);
            const std::int64_t pagesField = fixtures::numberOf(doc->second, c.pagesField);
            if (!c.pagesField.isEmpty() && pagesField != (moved > 0 ? pageCount : -1))
                problems << QStringLiteral("%1's pages field: %2")
                                .arg(QLatin1String(id))
                                .arg(pagesField);
        }
        return problems.join(QStringLiteral("; "));
    }

    // Runs one layout's harness (already built) and checks its output and the server.
    QString runAndCheck(CodeLanguage language, const fixtures::HostileLayout &layout,
                        const QString &program, const QStringList &args)
    {
        const Run r = run(program, args, m_run, environment(), kScript);
        QString problem;
        if (r.exitCode != 0)
            problem = QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err);
        else if (r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts) != kOutput)
            problem = QStringLiteral("printed %1").arg(r.out);
        else
            problem = checkServer(database(language), layout);
        if (QFileInfo::exists(m_run + QStringLiteral("/P"))) {
            problem += QStringLiteral(" INJECTED: the marker file P was created");
            QFile::remove(m_run + QStringLiteral("/P"));
        }
        return problem;
    }

    // Writes each layout's snippet for `language`; false (and the reason) when one failed.
    QStringList writeSnippets(CodeLanguage language, const QString &fileName = {})
    {
        QStringList problems;
        for (qsizetype i = 0; i < m_layouts.size(); ++i) {
            const SplitConfig c = m_layouts[i].config.withDefaults();
            const QString file =
                fileName.isEmpty() ? CodeGenerator::fileName(language, c) : fileName;
            if (!writeText(QDir(layoutDir(language, i)).filePath(file),
                           CodeGenerator::generate(language, c)))
                problems << m_layouts[i].tag + QStringLiteral(": cannot write ") + file;
        }
        return problems;
    }

    QStringList cFlags() const
    {
        const Run r = run(
            QStringLiteral("pkg-config"),
            {QStringLiteral("--cflags"), QStringLiteral("--libs"), QStringLiteral("libmongoc-1.0")},
            m_run, environment());
        return r.out.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }

    QStringList runScripts(CodeLanguage language)
    {
        const bool js = language == CodeLanguage::JavaScript;
        QStringList problems =
            writeSnippets(language, js ? QStringLiteral("snippet.js") : QStringLiteral("s.py"));
        for (qsizetype i = 0; i < m_layouts.size(); ++i) {
            const SplitConfig c = m_layouts[i].config.withDefaults();
            const QString snippet =
                QDir(layoutDir(language, i))
                    .filePath(js ? QStringLiteral("snippet.js") : QStringLiteral("s.py"));
            const QString problem = runAndCheck(
                language, m_layouts[i], js ? QStringLiteral("node") : QStringLiteral("python3"),
                {m_harness + (js ? QStringLiteral("/harness.js") : QStringLiteral("/harness.py")),
                 snippet, m_uri, database(language), nameOf(c, js ? "Name" : "name_")});
            if (!problem.isEmpty())
                problems << m_layouts[i].tag + QStringLiteral(": ") + problem;
        }
        return problems;
    }

    QStringList runC()
    {
        QStringList problems = writeSnippets(CodeLanguage::C, QStringLiteral("snippet.c"));
        for (qsizetype i = 0; i < m_layouts.size(); ++i) {
            const SplitConfig c = m_layouts[i].config.withDefaults();
            const QString dir = layoutDir(CodeLanguage::C, i);
            const Run cc = run(QStringLiteral("cc"),
                               QStringList{QStringLiteral("-Wall"), QStringLiteral("-Wextra"),
                                           QStringLiteral("-Werror"),
                                           QStringLiteral("-DOE_NAME=") + nameOf(c, "name_"),
                                           QStringLiteral("-I") + dir, QStringLiteral("-o"),
                                           dir + QStringLiteral("/harness"),
                                           m_harness + QStringLiteral("/harness.c")} +
                                   cFlags(),
                               m_run, environment());
            const QString problem =
                cc.exitCode != 0
                    ? QStringLiteral("cc: ") + cc.err.left(600)
                    : runAndCheck(CodeLanguage::C, m_layouts[i], dir + QStringLiteral("/harness"),
                                  {m_uri, database(CodeLanguage::C)});
            if (!problem.isEmpty())
                problems << m_layouts[i].tag + QStringLiteral(": ") + problem;
        }
        return problems;
    }

    // One javac for every layout's class and the harness; the harness finds a class by name.
    QStringList runJava()
    {
        const QString src = m_dir.filePath(QStringLiteral("java-src"));
        QStringList files{m_harness + QStringLiteral("/Harness.java")};
        QStringList classes;
        for (const auto &layout : m_layouts) {
            const SplitConfig c = layout.config.withDefaults();
            const QString file = CodeGenerator::fileName(CodeLanguage::Java, c);
            files << QDir(src).filePath(file);
            classes << QFileInfo(file).completeBaseName();
            if (!writeText(files.last(), CodeGenerator::generate(CodeLanguage::Java, c)))
                return {layout.tag + QStringLiteral(": cannot write ") + file};
        }
        const QString classpath = m_drivers + QStringLiteral("/java/lib/*");
        const QString out = m_dir.filePath(QStringLiteral("java-classes"));
        const Run javac =
            run(QStringLiteral("javac"),
                QStringList{QStringLiteral("-Xlint:all"), QStringLiteral("-Werror"),
                            QStringLiteral("-cp"), classpath, QStringLiteral("-d"), out} +
                    files,
                m_run, environment());
        if (javac.exitCode != 0)
            return {QStringLiteral("javac: ") + javac.err};
        QStringList problems;
        for (qsizetype i = 0; i < m_layouts.size(); ++i) {
            const QString problem = runAndCheck(
                CodeLanguage::Java, m_layouts[i], QStringLiteral("java"),
                {QStringLiteral("-cp"), out + QLatin1Char(':') + classpath,
                 QStringLiteral("Harness"), m_uri, database(CodeLanguage::Java), classes[i]});
            if (!problem.isEmpty())
                problems << m_layouts[i].tag + QStringLiteral(": ") + problem;
        }
        return problems;
    }

    // One module: each layout's snippet a package (l0, l1, ...), the harness as main with a
    // table of their functions; vetted and built once.
    QStringList runGo()
    {
        const QString module = m_dir.filePath(QStringLiteral("go"));
        QString imports, table;
        for (qsizetype i = 0; i < m_layouts.size(); ++i) {
            const SplitConfig c = m_layouts[i].config.withDefaults();
            const QString pkg = QStringLiteral("l%1").arg(i), name = nameOf(c, "Name");
            if (!writeText(QStringLiteral("%1/%2/snippet.go").arg(module, pkg),
                           CodeGenerator::generate(CodeLanguage::Go, c)))
                return {QStringLiteral("cannot write the Go module")};
            imports += QStringLiteral("\t%1 \"oe-codegen-test/%1\"\n").arg(pkg);
            table += QStringLiteral("\t\"%1\": {%2.CreateOverflowIndex%3, %2.Append%3, %2.Read%3, "
                                    "%2.ReadAll%3},\n")
                         .arg(i)
                         .arg(pkg, name);
        }
        writeText(module + QStringLiteral("/cases.go"),
                  QStringLiteral("package main\n\nimport (\n%1)\n\nvar cases = "
                                 "map[string]snippetAPI{\n%2}\n")
                      .arg(imports, table));
        for (const QString &f : {QStringLiteral("go.mod"), QStringLiteral("go.sum")})
            QFile::copy(m_drivers + QStringLiteral("/go/") + f, module + QLatin1Char('/') + f);
        QFile::copy(m_harness + QStringLiteral("/harness.go"), module + QStringLiteral("/main.go"));
        for (const QStringList &args :
             {QStringList{QStringLiteral("vet"), QStringLiteral("./...")},
              QStringList{QStringLiteral("build"), QStringLiteral("-o"), QStringLiteral("harness"),
                          QStringLiteral(".")}}) {
            const Run go = run(QStringLiteral("go"), args, module, environment());
            if (go.exitCode != 0)
                return {QStringLiteral("go %1: %2").arg(args.first(), go.err)};
        }
        QStringList problems;
        for (qsizetype i = 0; i < m_layouts.size(); ++i) {
            const QString problem =
                runAndCheck(CodeLanguage::Go, m_layouts[i], module + QStringLiteral("/harness"),
                            {m_uri, database(CodeLanguage::Go), QString::number(i)});
            if (!problem.isEmpty())
                problems << m_layouts[i].tag + QStringLiteral(": ") + problem;
        }
        return problems;
    }

    // mongosh's snippet under Node with a recording `db`: it must name exactly the collection
    // and the overflow collection, use every field name as it is, and read the elements.
    QStringList runMongosh()
    {
        QStringList problems = writeSnippets(CodeLanguage::Mongosh, QStringLiteral("mongosh.js"));
        for (qsizetype i = 0; i < m_layouts.size(); ++i) {
            const SplitConfig c = m_layouts[i].config.withDefaults();
            const QJsonObject names{
                {QStringLiteral("path"), QJsonArray::fromStringList(c.pathSegments())},
                {QStringLiteral("flag"), c.flagField},
                {QStringLiteral("count"), c.countField},
                {QStringLiteral("items"), c.itemsField}};
            const Run r = run(
                QStringLiteral("node"),
                {m_harness + QStringLiteral("/harness-mongosh.js"),
                 QDir(layoutDir(CodeLanguage::Mongosh, i)).filePath(QStringLiteral("mongosh.js")),
                 QString::fromUtf8(QJsonDocument(names).toJson(QJsonDocument::Compact))},
                m_run, environment());
            const QString problem = r.exitCode != 0 ? r.err : checkMongosh(r.out, c);
            if (!problem.isEmpty() || QFile::remove(m_run + QStringLiteral("/P")))
                problems << m_layouts[i].tag + QStringLiteral(": ") + problem +
                                QStringLiteral(" (or P created)");
        }
        return problems;
    }

    static QString checkMongosh(const QString &out, const SplitConfig &c)
    {
        const QJsonObject result = QJsonDocument::fromJson(out.toUtf8()).object();
        QSet<QString> collections, keys;
        for (const QJsonValue call : result.value(QStringLiteral("calls")).toArray()) {
            collections << call[QStringLiteral("collection")].toString();
            for (const QJsonValue key : call[QStringLiteral("keys")].toArray())
                keys << key.toString();
        }
        QStringList problems;
        if (collections != QSet<QString>{c.collection, c.overflowCollection})
            problems << QStringLiteral("collections %1")
                            .arg(QStringList(collections.values()).join(QStringLiteral(" | ")));
        for (const QString &name : {c.field, c.linkField, c.pageField, c.itemsField, c.flagField,
                                    c.countField, c.pagesField})
            if (!name.isEmpty() && !keys.contains(name))
                problems << QStringLiteral("no key %1").arg(name.left(80));
        if (result.value(QStringLiteral("read")).toArray() != QJsonArray{1, 2, 3})
            problems << QStringLiteral("read %1").arg(out.left(200));
        return problems.join(QStringLiteral("; "));
    }

private slots:
    void initTestCase()
    {
        const QString missing = openBench();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        m_run = m_dir.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(m_run));
        m_layouts = fixtures::hostileLayouts();
        for (const auto &layout : m_layouts) {
            const QStringList problems = layout.config.withDefaults().problems();
            QVERIFY2(problems.isEmpty(), qPrintable(layout.tag + QStringLiteral(": ") +
                                                    problems.join(QStringLiteral("; "))));
        }
        mongoc_init();
    }

    void cleanupTestCase() { mongoc_cleanup(); }

    void hostileNamesRoundTrip_data()
    {
        QTest::addColumn<int>("language");
        for (const CodeLanguage language :
             {CodeLanguage::JavaScript, CodeLanguage::Python, CodeLanguage::C, CodeLanguage::Java,
              CodeLanguage::Go, CodeLanguage::Mongosh})
            QTest::newRow(qPrintable(codelanguage::name(language))) << int(language);
    }

    // Every hostile layout in one language: generated, compiled, run; the layouts that went
    // wrong, each with what went wrong.
    void hostileNamesRoundTrip()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        for (const auto &layout : m_layouts) {
            const QString problem = seed(database(lang), layout, &layout == &m_layouts.front());
            QVERIFY2(problem.isEmpty(), qPrintable(layout.tag + QStringLiteral(": ") + problem));
        }
        QStringList problems;
        switch (lang) {
        case CodeLanguage::JavaScript:
        case CodeLanguage::Python:
            problems = runScripts(lang);
            break;
        case CodeLanguage::C:
            problems = runC();
            break;
        case CodeLanguage::Java:
            problems = runJava();
            break;
        case CodeLanguage::Go:
            problems = runGo();
            break;
        case CodeLanguage::Mongosh:
            problems = runMongosh();
            break;
        }
        QStringList failed;
        for (const QString &problem : problems) {
            qWarning("%s", qPrintable(problem.left(1500)));
            failed << problem.section(QLatin1Char(':'), 0, 0).left(40);
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("%1 failed: %2")
                                .arg(codelanguage::name(lang), failed.join(QStringLiteral(", ")))));
    }
};

QTEST_GUILESS_MAIN(TestCodegenEscape)
#include "tst_codegenescape.moc"
