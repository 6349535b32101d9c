// The generated application code, run for real: for each language, its official driver (from
// npm, PyPI, the Go module proxy, Maven Central, Debian) runs the snippet `codegen` writes
// (compiled warning-free where the language compiles)
// against mongod, on documents the CLI has just split. Appends past the threshold land in the
// right pages with the flag and counters right, and the read path returns every element
// exactly once, in order (whole and by range); four writers racing on one document lose
// nothing and keep every page full but the last.
#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CodegenBench.h"
#include "LiveDocuments.h"
#include "codegen/CodeGenerator.h"
#include "split/SplitLayoutPreset.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace oe;

namespace {

QString items(int from, int to)
{
    QStringList out;
    for (int n = from; n <= to; ++n)
        out << QStringLiteral("{\"n\": %1}").arg(n);
    return out.join(QStringLiteral(", "));
}

QByteArray idOf(const char *id)
{
    return fixtures::fieldOf(
        fixtures::bson(qPrintable(QStringLiteral("{\"_id\": \"%1\"}").arg(QLatin1String(id)))),
        QStringLiteral("_id"));
}

// The overflow pages of one parent, by page number: their element counts.
QList<int> pageSizes(const std::map<QByteArray, QByteArray> &pages, const char *parent)
{
    QMap<std::int64_t, int> byPage;
    for (const auto &[id, doc] : pages)
        if (fixtures::fieldOf(doc, QStringLiteral("parent_id")) == idOf(parent))
            byPage.insert(fixtures::numberOf(doc, QStringLiteral("page")),
                          int(fixtures::elementsOf(doc, QStringLiteral("comments")).size()));
    QList<int> out;
    for (auto it = byPage.cbegin(); it != byPage.cend(); ++it) {
        if (it.key() != out.size())
            return {-1}; // a missing or duplicated page number
        out << it.value();
    }
    return out;
}

} // namespace

class TestCodegen : public QObject, public CodegenBench
{
    Q_OBJECT

    const QString m_db = QStringLiteral("oe_codegen");

    static QStringList layoutArgs(int keep)
    {
        return {QStringLiteral("--field"),       QStringLiteral("comments"),
                QStringLiteral("--keep"),        QString::number(keep),
                QStringLiteral("--page-size"),   QStringLiteral("4"),
                QStringLiteral("--count-field"), QStringLiteral("n_comments"),
                QStringLiteral("--pages-field"), QStringLiteral("n_pages")};
    }

    // `documents` into m_db.<collection>, split by the CLI at `keep` (pages of 4).
    void loadAndSplit(const QString &collection, const QStringList &documents, int keep)
    {
        QList<QByteArray> docs;
        for (const QString &d : documents)
            docs << fixtures::bson(qPrintable(d));
        const QString dump = m_dir.filePath(collection + QStringLiteral(".bson"));
        QVERIFY(fixtures::writeFile(dump, fixtures::concat(docs)));
        CliRun r = runCli({QStringLiteral("import"), QStringLiteral("--uri"), m_uri,
                           QStringLiteral("--db"), m_db, QStringLiteral("--collection"), collection,
                           QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli(QStringList{QStringLiteral("split"), QStringLiteral("--uri"), m_uri,
                               QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                               collection, QStringLiteral("--yes")} +
                   layoutArgs(keep));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    QString generate(CodeLanguage language, const QString &collection, int keep)
    {
        const QString dir = m_dir.filePath(codelanguage::name(language) + collection);
        QDir().mkpath(dir);
        const QString out =
            QDir(dir).filePath(QStringLiteral("snippet.") + codelanguage::extension(language));
        const CliRun r =
            runCli(QStringList{QStringLiteral("codegen"), QStringLiteral("--lang"),
                               codelanguage::name(language), QStringLiteral("--collection"),
                               collection, QStringLiteral("--out"), out} +
                   layoutArgs(keep));
        if (r.exitCode != 0)
            qWarning("codegen failed: %s", qPrintable(r.err));
        return out;
    }

    // The language's harness for `snippet`, compiled where the language compiles: how to
    // start it.
    struct Harness
    {
        QString program, workingDirectory;
        QStringList args;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    };

    Harness prepareHarness(CodeLanguage language, const QString &snippet)
    {
        Harness h;
        QProcessEnvironment &env = h.env;
        QString &program = h.program;
        QStringList &args = h.args;
        switch (language) {
        case CodeLanguage::JavaScript:
            env.insert(QStringLiteral("NODE_PATH"),
                       m_drivers + QStringLiteral("/node/node_modules"));
            program = QStringLiteral("node");
            args = {m_harness + QStringLiteral("/harness.js"), snippet, m_uri, m_db,
                    QStringLiteral("Comments")};
            break;
        case CodeLanguage::Python:
            env.insert(QStringLiteral("PYTHONPATH"), m_drivers + QStringLiteral("/python"));
            program = QStringLiteral("python3");
            args = {m_harness + QStringLiteral("/harness.py"), snippet, m_uri, m_db,
                    QStringLiteral("comments")};
            break;
        case CodeLanguage::C: {
            // Compiled warning-free against Debian's libmongoc, the snippet #included.
            const QString dir = QFileInfo(snippet).absolutePath();
            QProcess flags;
            flags.start(QStringLiteral("pkg-config"),
                        {QStringLiteral("--cflags"), QStringLiteral("--libs"),
                         QStringLiteral("libmongoc-1.0")});
            flags.waitForFinished();
            QProcess cc;
            cc.start(QStringLiteral("cc"),
                     QStringList{QStringLiteral("-Wall"), QStringLiteral("-Wextra"),
                                 QStringLiteral("-Werror"), QStringLiteral("-o"),
                                 dir + QStringLiteral("/harness"),
                                 m_harness + QStringLiteral("/harness.c"),
                                 QStringLiteral("-I") + dir} +
                         QString::fromUtf8(flags.readAllStandardOutput())
                             .simplified()
                             .split(QLatin1Char(' '), Qt::SkipEmptyParts));
            if (!cc.waitForFinished(120000) || cc.exitCode() != 0)
                qWarning("cc failed: %s", cc.readAllStandardError().constData());
            program = dir + QStringLiteral("/harness");
            args = {m_uri, m_db};
            break;
        }
        case CodeLanguage::Java: {
            // Compiled warning-free (-Xlint:all -Werror) against the sync driver's jars.
            const QString dir = QFileInfo(snippet).absolutePath();
            const QString classpath = m_drivers + QStringLiteral("/java/lib/*");
            QFile::copy(snippet, dir + QStringLiteral("/CommentsAccess.java"));
            QFile::copy(m_harness + QStringLiteral("/Harness.java"),
                        dir + QStringLiteral("/Harness.java"));
            QProcess javac;
            javac.start(QStringLiteral("javac"),
                        {QStringLiteral("-Xlint:all"), QStringLiteral("-Werror"),
                         QStringLiteral("-cp"), classpath, QStringLiteral("-d"),
                         dir + QStringLiteral("/classes"), dir + QStringLiteral("/Harness.java"),
                         dir + QStringLiteral("/CommentsAccess.java")});
            if (!javac.waitForFinished(300000) || javac.exitCode() != 0)
                qWarning("javac failed: %s", javac.readAllStandardError().constData());
            program = QStringLiteral("java");
            args = {QStringLiteral("-cp"), dir + QStringLiteral("/classes:") + classpath,
                    QStringLiteral("Harness"), m_uri, m_db};
            break;
        }
        case CodeLanguage::Go: {
            // A module: the harness as main, the snippet as package ./snippet.
            const QString module = QFileInfo(snippet).dir().filePath(QStringLiteral("module"));
            QDir().mkpath(module + QStringLiteral("/snippet"));
            for (const QString &f : {QStringLiteral("go.mod"), QStringLiteral("go.sum")})
                QFile::copy(m_drivers + QStringLiteral("/go/") + f, module + QLatin1Char('/') + f);
            QFile::copy(m_harness + QStringLiteral("/harness.go"),
                        module + QStringLiteral("/main.go"));
            QFile::copy(snippet, module + QStringLiteral("/snippet/snippet.go"));
            QFile cases(module + QStringLiteral("/cases.go"));
            if (!cases.open(QIODevice::WriteOnly) ||
                cases.write("package main\n\nimport snippet \"oe-codegen-test/snippet\"\n\n"
                            "var cases = map[string]snippetAPI{\"0\": {"
                            "snippet.CreateOverflowIndexComments, snippet.AppendComments, "
                            "snippet.ReadComments, snippet.ReadAllComments}}\n") < 0)
                qFatal("cannot write cases.go");
            cases.close();
            env.insert(QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod"));
            QProcess go;
            go.setProcessEnvironment(env);
            go.setWorkingDirectory(module);
            go.start(QStringLiteral("go"), {QStringLiteral("build"), QStringLiteral("-o"),
                                            QStringLiteral("harness"), QStringLiteral(".")});
            if (!go.waitForFinished(600000) || go.exitCode() != 0)
                qWarning("go build failed: %s", go.readAllStandardError().constData());
            program = module + QStringLiteral("/harness");
            args = {m_uri, m_db};
            break;
        }
        default:
            qFatal("no harness for %s", qPrintable(codelanguage::name(language)));
        }
        return h;
    }

    // Starts a prepared harness with `script` on its standard input.
    static void start(const Harness &h, QProcess *p, const QString &script)
    {
        p->setProcessEnvironment(h.env);
        if (!h.workingDirectory.isEmpty())
            p->setWorkingDirectory(h.workingDirectory);
        p->start(h.program, h.args);
        p->write(script.toUtf8());
        p->closeWriteChannel();
    }

    // Waits for a started harness: its standard output.
    static QString finish(QProcess *p)
    {
        if (!p->waitForFinished(600000))
            qFatal("harness hung");
        if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0)
            qWarning("harness failed: %s", p->readAllStandardError().constData());
        return QString::fromUtf8(p->readAllStandardOutput());
    }

    // Runs the language's harness on `snippet` with `script` on its standard input.
    QString runHarness(CodeLanguage language, const QString &snippet, const QString &script)
    {
        QProcess p;
        start(prepareHarness(language, snippet), &p, script);
        return finish(&p);
    }

    // Compiles (or, for scripts, parses) `code` in `dir`; the compiler's complaint, or empty.
    QString compile(CodeLanguage language, const QString &code, const QString &dir,
                    const QString &fileName)
    {
        QDir().mkpath(dir);
        const QString path = QDir(dir).filePath(fileName);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(code.toUtf8()) < 0)
            return QStringLiteral("cannot write ") + path;
        f.close();
        QProcess p;
        p.setWorkingDirectory(dir);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        switch (language) {
        case CodeLanguage::JavaScript:
        case CodeLanguage::Mongosh:
            p.start(QStringLiteral("node"), {QStringLiteral("--check"), path});
            break;
        case CodeLanguage::Python:
            p.start(QStringLiteral("python3"),
                    {QStringLiteral("-m"), QStringLiteral("py_compile"), path});
            break;
        case CodeLanguage::C: {
            QProcess flags;
            flags.start(QStringLiteral("pkg-config"),
                        {QStringLiteral("--cflags"), QStringLiteral("libmongoc-1.0")});
            flags.waitForFinished();
            p.start(QStringLiteral("cc"),
                    QStringList{QStringLiteral("-fsyntax-only"), QStringLiteral("-Wall"),
                                QStringLiteral("-Wextra"), QStringLiteral("-Werror"), path} +
                        QString::fromUtf8(flags.readAllStandardOutput())
                            .simplified()
                            .split(QLatin1Char(' '), Qt::SkipEmptyParts));
            break;
        }
        case CodeLanguage::Java:
            p.start(QStringLiteral("javac"),
                    {QStringLiteral("-Xlint:all"), QStringLiteral("-Werror"), QStringLiteral("-cp"),
                     m_drivers + QStringLiteral("/java/lib/*"), QStringLiteral("-d"),
                     dir + QStringLiteral("/classes"), path});
            break;
        case CodeLanguage::Go: {
            // go vet type-checks the package (and reports what a Go reviewer would).
            QDir().mkpath(dir + QStringLiteral("/snippet"));
            QFile::rename(path, dir + QStringLiteral("/snippet/") + fileName);
            for (const QString &name : {QStringLiteral("go.mod"), QStringLiteral("go.sum")})
                QFile::copy(m_drivers + QStringLiteral("/go/") + name,
                            dir + QLatin1Char('/') + name);
            env.insert(QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral("go"), {QStringLiteral("vet"), QStringLiteral("./snippet")});
            break;
        }
        }
        if (!p.waitForFinished(300000))
            return QStringLiteral("compiler hung");
        return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0
                   ? QString()
                   : QString::fromUtf8(p.readAllStandardError() + p.readAllStandardOutput());
    }

private slots:
    void initTestCase()
    {
        const QString missing = openBench();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // Every language and every preset: the names filled in, no token left.
    void everyLanguageAndPresetIsFilledIn()
    {
        for (const CodeLanguage language :
             {CodeLanguage::JavaScript, CodeLanguage::Python, CodeLanguage::Go, CodeLanguage::C,
              CodeLanguage::Java, CodeLanguage::Mongosh}) {
            for (const SplitLayoutPreset preset : splitlayout::all()) {
                SplitConfig c;
                c.collection = QStringLiteral("books");
                c.field = QStringLiteral("customers_purchased");
                c = splitlayout::apply(preset, c).withDefaults();
                const QString code = CodeGenerator::generate(language, c);
                QVERIFY(!code.isEmpty());
                static const QRegularExpression token(QStringLiteral("\\{\\{[A-Za-z_]+\\}\\}"));
                QVERIFY2(!code.contains(token), qPrintable(code));
                for (const QString &name : {c.overflowCollection, c.linkField, c.flagField})
                    QVERIFY2(code.contains(name), qPrintable(name));
                if (!c.countField.isEmpty() && language != CodeLanguage::Mongosh)
                    QVERIFY(code.contains(c.countField));
            }
        }
    }

    void presetsCompile_data()
    {
        QTest::addColumn<int>("language");
        for (const CodeLanguage language :
             {CodeLanguage::JavaScript, CodeLanguage::Python, CodeLanguage::Go, CodeLanguage::C,
              CodeLanguage::Java, CodeLanguage::Mongosh})
            QTest::newRow(qPrintable(codelanguage::name(language))) << int(language);
    }

    // Each language, each preset of the seed texts (and a nested field): the snippet compiles
    // (or parses) without a warning.
    void presetsCompile()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        for (const SplitLayoutPreset preset : splitlayout::all()) {
            SplitConfig c;
            c.collection = QStringLiteral("books");
            c.field = preset == SplitLayoutPreset::Default ? QStringLiteral("stats.sales")
                                                           : QStringLiteral("customers_purchased");
            c = splitlayout::apply(preset, c).withDefaults();
            const QString dir =
                m_dir.filePath(QStringLiteral("compile-%1-%2")
                                   .arg(codelanguage::name(lang), splitlayout::name(preset)));
            const QString problem =
                compile(lang, CodeGenerator::generate(lang, c), dir,
                        lang == CodeLanguage::Go ? QStringLiteral("snippet.go")
                                                 : CodeGenerator::fileName(lang, c));
            QVERIFY2(problem.isEmpty(),
                     qPrintable(splitlayout::name(preset) + QStringLiteral(": ") + problem));
        }
    }

    void appendsAndReadsOnTheServer_data()
    {
        QTest::addColumn<int>("language");
        QTest::newRow("js") << int(CodeLanguage::JavaScript);
        QTest::newRow("python") << int(CodeLanguage::Python);
        QTest::newRow("go") << int(CodeLanguage::Go);
        QTest::newRow("c") << int(CodeLanguage::C);
        QTest::newRow("java") << int(CodeLanguage::Java);
    }

    // keep 5, pages of 4: A (12 elements, split: 5 + pages of 4, 3) gets 8 more; B (3, not
    // split) gets 6 more and becomes an outlier through the write path itself.
    void appendsAndReadsOnTheServer()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        const QString collection = QStringLiteral("posts_") + codelanguage::name(lang);
        loadAndSplit(collection,
                     {QStringLiteral("{\"_id\": \"A\", \"comments\": [%1]}").arg(items(1, 12)),
                      QStringLiteral("{\"_id\": \"B\", \"comments\": [%1]}").arg(items(1, 3))},
                     5);
        QString script = QStringLiteral("index\n");
        for (int n = 13; n <= 20; ++n)
            script += QStringLiteral("append A %1\n").arg(n);
        for (int n = 4; n <= 9; ++n)
            script += QStringLiteral("append B %1\n").arg(n);
        script +=
            QStringLiteral("all A\nall B\nread A 3 6\nread A 10 8\nread A 18 5\nread B 0 3\n");
        const QString out = runHarness(lang, generate(lang, collection, 5), script);
        QCOMPARE(
            out.split(QLatin1Char('\n'), Qt::SkipEmptyParts),
            QStringList({QStringLiteral("A: 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"),
                         QStringLiteral("B: 1,2,3,4,5,6,7,8,9"), QStringLiteral("A: 4,5,6,7,8,9"),
                         QStringLiteral("A: 11,12,13,14,15,16,17,18"), QStringLiteral("A: 19,20"),
                         QStringLiteral("B: 1,2,3")}));

        const auto docs = fixtures::readCollection(m_uri, m_db, collection);
        const auto pages =
            fixtures::readCollection(m_uri, m_db, collection + QStringLiteral("_overflow"));
        const QByteArray a = docs.at(idOf("A")), b = docs.at(idOf("B"));
        QCOMPARE(fixtures::elementsOf(a, QStringLiteral("comments")).size(), qsizetype(5));
        QCOMPARE(fixtures::numberOf(a, QStringLiteral("n_comments")), std::int64_t(20));
        QCOMPARE(fixtures::numberOf(a, QStringLiteral("n_pages")), std::int64_t(4));
        QCOMPARE(pageSizes(pages, "A"), QList<int>({4, 4, 4, 3}));
        QCOMPARE(fixtures::elementsOf(b, QStringLiteral("comments")).size(), qsizetype(5));
        QVERIFY(!fixtures::fieldOf(b, QStringLiteral("has_extras")).isEmpty());
        QCOMPARE(fixtures::numberOf(b, QStringLiteral("n_comments")), std::int64_t(9));
        QCOMPARE(fixtures::numberOf(b, QStringLiteral("n_pages")), std::int64_t(1));
        QCOMPARE(pageSizes(pages, "B"), QList<int>({4}));
    }

    void appendsUnderTheGuard_data()
    {
        QTest::addColumn<int>("language");
        QTest::newRow("js") << int(CodeLanguage::JavaScript);
        QTest::newRow("python") << int(CodeLanguage::Python);
    }

    // `guard --action error` (maxItems 5 on the primary): the generated append still works,
    // for a split document and for one that becomes an outlier through it, while an
    // application's naive $push past 5 is refused; `guard --remove` lets it through again.
    void appendsUnderTheGuard()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        const QString collection = QStringLiteral("guarded_") + codelanguage::name(lang);
        loadAndSplit(collection,
                     {QStringLiteral("{\"_id\": \"A\", \"comments\": [%1]}").arg(items(1, 12)),
                      QStringLiteral("{\"_id\": \"B\", \"comments\": [%1]}").arg(items(1, 3))},
                     5);
        CliRun r =
            runCli(QStringList{QStringLiteral("guard"), QStringLiteral("--uri"), m_uri,
                               QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                               collection, QStringLiteral("--action"), QStringLiteral("error")} +
                   layoutArgs(5));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents over the guard now: 0")),
                 qPrintable(r.out));
        QString script = QStringLiteral("index\n");
        for (int n = 13; n <= 16; ++n)
            script += QStringLiteral("append A %1\n").arg(n);
        for (int n = 4; n <= 9; ++n)
            script += QStringLiteral("append B %1\n").arg(n);
        script += QStringLiteral("all A\nall B\n");
        const QString out = runHarness(lang, generate(lang, collection, 5), script);
        QCOMPARE(out.split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("A: 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"),
                              QStringLiteral("B: 1,2,3,4,5,6,7,8,9")}));

        const QByteArray naive = QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": "
                                                "{\"_id\": \"B\"}, \"u\": {\"$push\": "
                                                "{\"comments\": {\"n\": 100}}}}]}")
                                     .arg(collection)
                                     .toUtf8();
        QString error;
        QByteArray reply;
        QVERIFY(!fixtures::command(m_uri, m_db, naive, &error, &reply));
        QVERIFY2(reply.contains("Document failed validation"), qPrintable(error));
        r = runCli({QStringLiteral("guard"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
                    m_db, QStringLiteral("--collection"), collection, QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(fixtures::command(m_uri, m_db, naive, &error), qPrintable(error));
    }

    void keepZeroMovesEveryAppend_data() { appendsAndReadsOnTheServer_data(); }

    // The viral-post layout: keep 0, every element in the pages, even for a document the
    // split left alone (Q, no array at all).
    void keepZeroMovesEveryAppend()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        const QString collection = QStringLiteral("viral_") + codelanguage::name(lang);
        loadAndSplit(collection,
                     {QStringLiteral("{\"_id\": \"P\", \"comments\": [%1]}").arg(items(1, 3)),
                      QStringLiteral("{\"_id\": \"Q\", \"title\": \"quiet\"}")},
                     0);
        const QString out = runHarness(lang, generate(lang, collection, 0),
                                       QStringLiteral("index\nappend P 4\nappend P 5\nappend P 6\n"
                                                      "append Q 1\nappend Q 2\nall P\nall Q\n"
                                                      "read P 2 3\n"));
        QCOMPARE(out.split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("P: 1,2,3,4,5,6"), QStringLiteral("Q: 1,2"),
                              QStringLiteral("P: 3,4,5")}));
        const auto docs = fixtures::readCollection(m_uri, m_db, collection);
        const auto pages =
            fixtures::readCollection(m_uri, m_db, collection + QStringLiteral("_overflow"));
        QCOMPARE(pageSizes(pages, "P"), QList<int>({4, 2}));
        QCOMPARE(pageSizes(pages, "Q"), QList<int>({2}));
        QCOMPARE(fixtures::numberOf(docs.at(idOf("P")), QStringLiteral("n_comments")),
                 std::int64_t(6));
        QCOMPARE(fixtures::numberOf(docs.at(idOf("Q")), QStringLiteral("n_comments")),
                 std::int64_t(2));
        QCOMPARE(fixtures::numberOf(docs.at(idOf("Q")), QStringLiteral("n_pages")),
                 std::int64_t(1));
    }

    void concurrentWritersLoseNothing_data() { appendsAndReadsOnTheServer_data(); }

    // Four processes append 40 elements each to one split document at once (keep 5, pages of
    // 4): every element is there once, each writer's in its own order, every page full but
    // the last, the count the total and the page count the pages.
    void concurrentWritersLoseNothing()
    {
        QFETCH(int, language);
        const auto lang = CodeLanguage(language);
        const QString collection = QStringLiteral("race_") + codelanguage::name(lang);
        loadAndSplit(collection,
                     {QStringLiteral("{\"_id\": \"A\", \"comments\": [%1]}").arg(items(1, 7))}, 5);
        const Harness harness = prepareHarness(lang, generate(lang, collection, 5));
        // Every operation on the database profiled while they run (their collection is this
        // language's alone).
        QString error;
        QVERIFY2(fixtures::startProfiling(m_uri, m_db, &error), qPrintable(error));
        constexpr int kWriters = 4, kEach = 40;
        std::vector<std::unique_ptr<QProcess>> writers;
        for (int w = 1; w <= kWriters; ++w) {
            QString script = w == 1 ? QStringLiteral("index\n") : QString();
            for (int i = 1; i <= kEach; ++i)
                script += QStringLiteral("append A %1\n").arg(w * 1000 + i);
            writers.push_back(std::make_unique<QProcess>());
            start(harness, writers.back().get(), script);
        }
        for (auto &p : writers) {
            finish(p.get());
            QCOMPARE(p->exitCode(), 0);
        }
        QVERIFY2(fixtures::stopProfiling(m_uri, m_db, &error), qPrintable(error));
        // Two round trips an append: one findAndModify of the document, one update of a page
        // (a lost race to open a page retries its update); nothing read.
        const QString ns = m_db + QLatin1Char('.') + collection;
        QCOMPARE(
            fixtures::profiled(m_uri, m_db, ns,
                               QStringLiteral("{\"command.findAndModify\": {\"$exists\": true}}")),
            std::int64_t(kWriters * kEach));
        QCOMPARE(
            fixtures::profiled(m_uri, m_db, ns, QStringLiteral("{\"op\": {\"$ne\": \"command\"}}")),
            std::int64_t(0));
        const std::int64_t pageWrites = fixtures::profiled(
            m_uri, m_db, ns + QStringLiteral("_overflow"), QStringLiteral("{\"op\": \"update\"}"));
        QVERIFY2(pageWrites >= kWriters * kEach && pageWrites <= kWriters * kEach + kWriters * 3,
                 qPrintable(QString::number(pageWrites)));
        QCOMPARE(fixtures::profiled(m_uri, m_db, ns + QStringLiteral("_overflow"),
                                    QStringLiteral("{\"op\": \"query\"}")),
                 std::int64_t(0));
        QProcess reader;
        start(harness, &reader, QStringLiteral("all A\n"));
        const QString out = finish(&reader).trimmed();
        QVERIFY2(out.startsWith(QStringLiteral("A: ")), qPrintable(out));
        const QStringList numbers = out.mid(3).split(QLatin1Char(','));
        QCOMPARE(numbers.size(), 7 + kWriters * kEach);
        QMap<int, QList<int>> byWriter;
        for (qsizetype i = 0; i < numbers.size(); ++i) {
            const int n = numbers[i].toInt();
            if (i < 7)
                QCOMPARE(n, int(i) + 1);
            else
                byWriter[n / 1000] << n % 1000;
        }
        QList<int> inOrder;
        for (int i = 1; i <= kEach; ++i)
            inOrder << i;
        for (int w = 1; w <= kWriters; ++w)
            QCOMPARE(byWriter.value(w), inOrder);
        const auto docs = fixtures::readCollection(m_uri, m_db, collection);
        const auto pages =
            fixtures::readCollection(m_uri, m_db, collection + QStringLiteral("_overflow"));
        const QByteArray a = docs.at(idOf("A"));
        const int total = 7 + kWriters * kEach, moved = total - 5;
        QCOMPARE(fixtures::numberOf(a, QStringLiteral("n_comments")), std::int64_t(total));
        QCOMPARE(fixtures::numberOf(a, QStringLiteral("n_pages")), std::int64_t((moved + 3) / 4));
        QList<int> sizes(moved / 4, 4);
        if (moved % 4)
            sizes << moved % 4;
        QCOMPARE(pageSizes(pages, "A"), sizes);
    }
};

QTEST_GUILESS_MAIN(TestCodegen)
#include "tst_codegen.moc"
