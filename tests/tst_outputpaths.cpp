// Every file the CLI writes, when its path is not a plain new file (issue 24.1 and 24.2): a
// symbolic link at the path is replaced by the output, its target (the input dump, another
// file) never written; a write that fails (a full device, `ulimit -f`) is an error naming the
// path, exit 3, never "wrote", with no temporary file left behind; a character device such as
// /dev/stdout is written directly. End to end through the CLI, for each command that writes.
#include "CliRunner.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace {

// Each command with the output it writes: `{input}` is the dump read, `{dir}` the output folder;
// `output` is the file (in `{dir}`) whose path the test prepares.
void addCommands()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("output");
    const QStringList split{QStringLiteral("split"),
                            QStringLiteral("--dump"),
                            QStringLiteral("{input}"),
                            QStringLiteral("--field"),
                            QStringLiteral("customers_purchased"),
                            QStringLiteral("--keep"),
                            QStringLiteral("50"),
                            QStringLiteral("--out-dir"),
                            QStringLiteral("{dir}")};
    QTest::newRow("report html") << QStringList{QStringLiteral("report"), QStringLiteral("--dump"),
                                                QStringLiteral("{input}"), QStringLiteral("--out"),
                                                QStringLiteral("{dir}/report.html")}
                                 << QStringLiteral("report.html");
    QTest::newRow("report pdf") << QStringList{QStringLiteral("report"), QStringLiteral("--dump"),
                                               QStringLiteral("{input}"), QStringLiteral("--out"),
                                               QStringLiteral("{dir}/report.pdf")}
                                << QStringLiteral("report.pdf");
    QTest::newRow("codegen") << QStringList{QStringLiteral("codegen"),
                                            QStringLiteral("--lang"),
                                            QStringLiteral("js"),
                                            QStringLiteral("--collection"),
                                            QStringLiteral("books"),
                                            QStringLiteral("--field"),
                                            QStringLiteral("customers_purchased"),
                                            QStringLiteral("--keep"),
                                            QStringLiteral("50"),
                                            QStringLiteral("--out"),
                                            QStringLiteral("{dir}/code.js")}
                             << QStringLiteral("code.js");
    QTest::newRow("analyze csv") << QStringList{QStringLiteral("analyze"),
                                                QStringLiteral("--dump"),
                                                QStringLiteral("{input}"),
                                                QStringLiteral("--out"),
                                                QStringLiteral("{dir}"),
                                                QStringLiteral("--quiet")}
                                 << QStringLiteral("summary.csv");
    QTest::newRow("split plan.csv")
        << split + QStringList{QStringLiteral("--dry-run")} << QStringLiteral("plan.csv");
    QTest::newRow("offline split") << split << QStringLiteral("input.bson");
    QTest::newRow("demo data") << QStringList{QStringLiteral("demo-data"),
                                              QStringLiteral("--out"),
                                              QStringLiteral("{dir}"),
                                              QStringLiteral("--dataset"),
                                              QStringLiteral("book_sales"),
                                              QStringLiteral("--docs"),
                                              QStringLiteral("200")}
                               << QStringLiteral("book_sales.bson");
}

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray digest(const QString &path)
{
    return QCryptographicHash::hash(contents(path), QCryptographicHash::Sha256);
}

QStringList withPaths(QStringList args, const QString &input, const QString &dir)
{
    for (QString &a : args)
        a.replace(QStringLiteral("{input}"), input).replace(QStringLiteral("{dir}"), dir);
    return args;
}

// Staged temporary files (".<name>.oe-<pid>-<n>.tmp") left in `dir`.
QStringList leftovers(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral(".*.oe-*.tmp")}, QDir::Files | QDir::Hidden);
}

bool isCharacterDevice(const QString &path)
{
    struct stat st = {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISCHR(st.st_mode);
}

// Exit 3 and one line naming `path` (for a set of files: the folder, any file may fail first).
void expectFailureNaming(const CliRun &r, const QString &path)
{
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.startsWith(QStringLiteral("outlier-explorer-cli: ")) &&
                 r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));
    QVERIFY2(r.err.contains(path), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("wrote")) && !r.out.contains(QStringLiteral("wrote")),
             qPrintable(r.out + r.err));
}

} // namespace

class TestOutputPaths : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_books;
    int m_case = 0;

    // A fresh folder for one case: the input dump (a copy of the demo's book sales) beside an
    // empty output folder.
    QString prepare(QString *input)
    {
        const QString root = m_dir.filePath(QStringLiteral("case%1").arg(++m_case));
        QDir().mkpath(root + QStringLiteral("/out"));
        *input = root + QStringLiteral("/input.bson");
        QFile::copy(m_books, *input);
        return root + QStringLiteral("/out");
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Else Qt's warning about it (report) would be a second line on stderr.
        const QString runtime = m_dir.filePath(QStringLiteral("runtime"));
        QVERIFY(QDir().mkpath(runtime));
        QFile::setPermissions(runtime, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                           QFileDevice::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", runtime.toUtf8());
        const CliRun r = runCli({QStringLiteral("demo-data"), QStringLiteral("--out"),
                                 m_dir.filePath(QStringLiteral("demo")),
                                 QStringLiteral("--dataset"), QStringLiteral("book_sales")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_books = m_dir.filePath(QStringLiteral("demo/book_sales.bson"));
    }

    // The output path is a link to a file: to the input dump itself (report --out x.html ->
    // the dump made the dump HTML) or to another file. The link is replaced, the file kept.
    void aSymbolicLinkIsReplacedNotWrittenThrough_data() { addCommands(); }
    void aSymbolicLinkIsReplacedNotWrittenThrough()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, output);
        QString input;
        const QString dir = prepare(&input);
        // The offline split refuses to write over its input by name; a copy stands in for it.
        const QString target = output == QLatin1String("input.bson")
                                   ? QFileInfo(input).absolutePath() + QStringLiteral("/other.bson")
                                   : input;
        if (target != input)
            QVERIFY(QFile::copy(input, target));
        const QByteArray before = digest(target);
        const QString path = dir + QLatin1Char('/') + output;
        QVERIFY(QFile::link(target, path));
        const CliRun r = runCli(withPaths(args, input, dir), 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(digest(target), before);
        QCOMPARE(digest(input), digest(m_books));
        const QFileInfo written(path);
        QVERIFY2(!written.isSymLink() && written.isFile() && written.size() > 0, qPrintable(path));
        QVERIFY(digest(path) != before);
        QVERIFY2(leftovers(dir).isEmpty(), qPrintable(leftovers(dir).join(u' ')));
    }

    // The output path is a full device (a private /dev/full: the same device number): each
    // write fails with ENOSPC. Exit 3, the path named, the device still a device.
    void aFullDeviceIsAnError_data() { addCommands(); }
    void aFullDeviceIsAnError()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, output);
        QString input;
        const QString dir = prepare(&input);
        const QString path = dir + QLatin1Char('/') + output;
        if (::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0666, makedev(1, 7)) != 0)
            QSKIP("cannot create a character device here (needs CAP_MKNOD)");
        const CliRun r = runCli(withPaths(args, input, dir), 120000);
        expectFailureNaming(r, path);
        QVERIFY2(r.err.contains(QStringLiteral("No space left on device")), qPrintable(r.err));
        QVERIFY(isCharacterDevice(path));
        QVERIFY2(leftovers(dir).isEmpty(), qPrintable(leftovers(dir).join(u' ')));
        // Nothing else of the set was put in place either.
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::System | QDir::Hidden),
                 QStringList{output});
        QCOMPARE(digest(input), digest(m_books));
    }

    // `ulimit -f`: a write past the limit raises SIGXFSZ, which used to kill the CLI with no
    // message and its temporary file left behind. Now EFBIG, reported.
    void aFileSizeLimitIsAnError_data() { addCommands(); }
    void aFileSizeLimitIsAnError()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, output);
        QString input;
        const QString dir = prepare(&input);
        const QString path = dir + QLatin1Char('/') + output;
        const CliRun r = runCliUnderUlimit(withPaths(args, input, dir), 64, 120000);
        const bool aSet =
            args.contains(QStringLiteral("analyze")) ||
            (args.contains(QStringLiteral("split")) && !args.contains(QStringLiteral("--dry-run")));
        expectFailureNaming(r, aSet ? dir : path);
        QVERIFY2(r.err.contains(QStringLiteral("File too large")), qPrintable(r.err));
        QVERIFY2(leftovers(dir).isEmpty(), qPrintable(leftovers(dir).join(u' ')));
        QVERIFY(QDir(dir).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // A path that is (or links to) a character device or a pipe is written directly: the code
    // arrives on standard output, and /dev/stdout stays the link it is.
    void devStdoutIsWrittenDirectly()
    {
        const CliRun r = runCli(
            {QStringLiteral("codegen"), QStringLiteral("--lang"), QStringLiteral("js"),
             QStringLiteral("--collection"), QStringLiteral("books"), QStringLiteral("--field"),
             QStringLiteral("customers_purchased"), QStringLiteral("--keep"), QStringLiteral("50"),
             QStringLiteral("--out"), QStringLiteral("/dev/stdout")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("customers_purchased")), qPrintable(r.out));
        QVERIFY(QFileInfo(QStringLiteral("/dev/stdout")).isSymLink());
    }
};

QTEST_GUILESS_MAIN(TestOutputPaths)
#include "tst_outputpaths.moc"
