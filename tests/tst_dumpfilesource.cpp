#include "BsonFixtures.h"
#include "analysis/Analyzer.h"
#include "source/DumpFileSource.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace oe;

// The dump reader and the analyzer together: framing, corrupt input, sampling, threading.
class TestDumpFileSource : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QList<QByteArray> m_docs; // 300 documents of varied sizes and arrays
    QByteArray m_all;
    QList<qint64> m_offsets; // byte offset of each document

    QString path(const QString &name) const { return m_dir.filePath(name); }
    CollectionProfile analyze(const QString &file, AnalysisOptions options = {})
    {
        DumpFileSource source(file);
        return Analyzer::run(source, options);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qint64 offset = 0;
        for (int i = 0; i < 300; ++i) {
            const QByteArray d = i % 2 ? fixtures::documentWithArray(i, (i * 7) % 90)
                                       : fixtures::documentOfSize(i, 40 + i * 3);
            m_docs << d;
            m_offsets << offset;
            offset += d.size();
        }
        m_all = fixtures::concat(m_docs);
        QVERIFY(fixtures::writeFile(path(QStringLiteral("good.bson")), m_all));
    }

    void readsEveryDocument_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("batchBytes");
        QTest::newRow("1 thread, big batches") << 1 << (4 << 20);
        QTest::newRow("2 threads, big batches") << 2 << (4 << 20);
        QTest::newRow("2 threads, tiny batches") << 2 << 100;
        QTest::newRow("4 threads, 1 KiB batches") << 4 << 1024;
    }
    void readsEveryDocument()
    {
        QFETCH(int, threads);
        QFETCH(int, batchBytes);
        AnalysisOptions options;
        options.threads = threads;
        options.batchBytes = std::size_t(batchBytes);
        const auto p = analyze(path(QStringLiteral("good.bson")), options);
        QCOMPARE(p.status, CollectionProfile::Status::Complete);
        QCOMPARE(p.documents, std::uint64_t(m_docs.size()));
        QCOMPARE(p.sizes.sum(), std::uint64_t(m_all.size()));
        QCOMPARE(p.field("items")->arrays, 150u);
        QCOMPARE(p.field("items")->lengths.max(), 89u);
        QCOMPARE(p.largestDocuments.sorted().front().docIndex, 298u);
    }

    void gzipDumpsReadTheSame()
    {
        QVERIFY(fixtures::writeGzip(path(QStringLiteral("good.bson.gz")), m_all));
        const auto gz = analyze(path(QStringLiteral("good.bson.gz")));
        QCOMPARE(gz.status, CollectionProfile::Status::Complete);
        QCOMPARE(gz.documents, std::uint64_t(m_docs.size()));
        QCOMPARE(gz.sizes.sum(), std::uint64_t(m_all.size()));
    }

    // A damaged .bson.gz is never a complete analysis: gzread alone passes a cut-off stream, a
    // bad CRC and appended junk without a word.
    void damagedGzipIsNeverComplete_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("messagePart");
        QVERIFY(fixtures::writeGzip(path(QStringLiteral("whole.bson.gz")), m_all));
        QFile f(path(QStringLiteral("whole.bson.gz")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray gz = f.readAll();
        QVERIFY(gz.size() > 100);
        QTest::newRow("cut in the middle") << gz.left(gz.size() / 2) << QStringLiteral("truncated");
        QTest::newRow("cut before the trailer")
            << gz.left(gz.size() - 4) << QStringLiteral("truncated");
        QTest::newRow("trailing garbage")
            << gz + QByteArray("not gzip at all") << QStringLiteral("trailing data after the gzip");
        QByteArray badCrc = gz;
        badCrc[badCrc.size() - 8] = char(badCrc[badCrc.size() - 8] ^ 0x5a);
        QTest::newRow("wrong CRC") << badCrc << QStringLiteral("CRC");
        QTest::newRow("two bytes") << gz.left(2) << QStringLiteral("truncated");
    }
    void damagedGzipIsNeverComplete()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, messagePart);
        const QString file = path(QStringLiteral("damaged.bson.gz"));
        QVERIFY(fixtures::writeFile(file, bytes));
        const auto p = analyze(file);
        QCOMPARE(p.status, CollectionProfile::Status::Failed);
        QCOMPARE(p.error.kind, SourceError::Kind::InvalidData);
        QVERIFY2(p.error.toString().contains(messagePart, Qt::CaseInsensitive),
                 qPrintable(p.error.toString()));
        QVERIFY(p.documents <= std::uint64_t(m_docs.size()));
    }

    void corruptInputIsReportedWithIndexAndOffset_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("expectedKind");
        QTest::addColumn<qint64>("docIndex");
        QTest::addColumn<qint64>("byteOffset");
        QTest::addColumn<QString>("messagePart");

        QTest::newRow("empty file") << QByteArray() << int(SourceError::Kind::InvalidData)
                                    << qint64(-1) << qint64(0) << QStringLiteral("empty file");
        QByteArray truncated = m_all.left(m_all.size() - 7);
        QTest::newRow("truncated last document")
            << truncated << int(SourceError::Kind::InvalidData) << qint64(299) << m_offsets[299]
            << QStringLiteral("runs past end of file");
        QByteArray badLength = m_all;
        const qint32 three = 3;
        badLength.replace(int(m_offsets[120]), 4, reinterpret_cast<const char *>(&three), 4);
        QTest::newRow("length prefix below 5")
            << badLength << int(SourceError::Kind::InvalidData) << qint64(120) << m_offsets[120]
            << QStringLiteral("bad length prefix 3");
        QByteArray negative = m_all;
        const qint32 minusOne = -1;
        negative.replace(int(m_offsets[7]), 4, reinterpret_cast<const char *>(&minusOne), 4);
        QTest::newRow("negative length prefix")
            << negative << int(SourceError::Kind::InvalidData) << qint64(7) << m_offsets[7]
            << QStringLiteral("bad length prefix -1");
        QByteArray huge = m_all;
        const qint32 big = 50000000;
        huge.replace(int(m_offsets[200]), 4, reinterpret_cast<const char *>(&big), 4);
        QTest::newRow("length past end of file")
            << huge << int(SourceError::Kind::InvalidData) << qint64(200) << m_offsets[200]
            << QStringLiteral("runs past end of file");
        QTest::newRow("stray trailing bytes")
            << (m_all + QByteArray("\x01\x02", 2)) << int(SourceError::Kind::InvalidData)
            << qint64(300) << qint64(m_all.size()) << QStringLiteral("truncated length prefix");
        QByteArray noNul = m_all;
        noNul[int(m_offsets[51] + m_docs[51].size() - 1)] = 'x';
        QTest::newRow("missing terminator")
            << noNul << int(SourceError::Kind::InvalidData) << qint64(51) << m_offsets[51]
            << QStringLiteral("does not end with a NUL");
        // libbson checks the last byte of the outer document only; a nested array whose last
        // byte is not NUL would be written back differently.
        QByteArray arrayNoNul = m_all;
        const qint64 arrayEnd = m_offsets[51] + m_docs[51].size() - 2; // {_id, items: [...]}
        arrayNoNul[int(arrayEnd)] = '\xa6';
        QTest::newRow("nested array without terminator")
            << arrayNoNul << int(SourceError::Kind::InvalidData) << qint64(51) << arrayEnd
            << QStringLiteral("nested array does not end with a NUL byte");
        // A nested length prefix of 0: libbson iterates into it; the walk refuses it.
        QByteArray zeroLength = m_all;
        const qsizetype items = m_docs[51].indexOf(QByteArray("items\0", 6));
        const qint32 zero = 0;
        zeroLength.replace(int(m_offsets[51] + items + 6), 4, reinterpret_cast<const char *>(&zero),
                           4);
        QTest::newRow("nested array with length prefix 0")
            << zeroLength << int(SourceError::Kind::InvalidData) << qint64(51)
            << qint64(m_offsets[51] + items + 6) << QStringLiteral("bad length prefix 0");
        QByteArray nested = m_all;
        // Document 150 ({_id, pad}): make the pad string's length prefix run past the document.
        const int padLen = int(m_offsets[150]) + 4 + 9 + 1 + 4;
        const qint32 tooLong = 100000;
        nested.replace(padLen, 4, reinterpret_cast<const char *>(&tooLong), 4);
        QTest::newRow("invalid element inside a document")
            << nested << int(SourceError::Kind::InvalidData) << qint64(150) << qint64(-2)
            << QStringLiteral("invalid BSON");
    }
    void corruptInputIsReportedWithIndexAndOffset()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, expectedKind);
        QFETCH(qint64, docIndex);
        QFETCH(qint64, byteOffset);
        QFETCH(QString, messagePart);
        const QString file = path(QString::fromLatin1(QTest::currentDataTag())
                                      .replace(QLatin1Char(' '), QLatin1Char('_')) +
                                  QStringLiteral(".bson"));
        QVERIFY(fixtures::writeFile(file, bytes));
        for (int threads : {1, 2}) {
            AnalysisOptions options;
            options.threads = threads;
            options.batchBytes = 2048;
            const auto p = analyze(file, options);
            QCOMPARE(p.status, CollectionProfile::Status::Failed);
            QCOMPARE(int(p.error.kind), expectedKind);
            QCOMPARE(p.error.docIndex, docIndex);
            if (byteOffset == -2) // somewhere inside that document
                QVERIFY(p.error.byteOffset > m_offsets[docIndex] &&
                        p.error.byteOffset < m_offsets[docIndex] + m_docs[docIndex].size());
            else
                QCOMPARE(p.error.byteOffset, byteOffset);
            const QString line = p.error.toString();
            QVERIFY2(line.contains(messagePart), qPrintable(line));
            QVERIFY2(line.contains(file), qPrintable(line));
            QVERIFY(!line.contains(QLatin1Char('\n')));
            // What came before the fault is analysed, exactly.
            const std::uint64_t before = std::uint64_t(std::max<qint64>(docIndex, 0));
            QCOMPARE(p.documents, before);
            std::uint64_t bytesBefore = 0;
            for (std::uint64_t i = 0; i < before; ++i)
                bytesBefore += std::uint64_t(m_docs[int(i)].size());
            QCOMPARE(p.sizes.sum(), bytesBefore);
        }
    }

    void directoriesAndMissingFilesAreIoErrors()
    {
        auto p = analyze(m_dir.path());
        QCOMPARE(p.error.kind, SourceError::Kind::Io);
        QVERIFY(p.error.toString().contains(QStringLiteral("is a directory")));
        p = analyze(path(QStringLiteral("missing.bson")));
        QCOMPARE(p.error.kind, SourceError::Kind::Io);
        QVERIFY(p.error.toString().contains(QStringLiteral("No such file")));
    }

    void unreadableFilesAreIoErrors()
    {
        if (::geteuid() == 0)
            QSKIP("running as root: file permissions are not enforced");
        const QString file = path(QStringLiteral("locked.bson"));
        QVERIFY(fixtures::writeFile(file, m_all));
        QFile::setPermissions(file, QFileDevice::Permissions());
        const auto p = analyze(file);
        QCOMPARE(p.error.kind, SourceError::Kind::Io);
        QVERIFY(p.error.toString().contains(QStringLiteral("Permission denied")));
    }

    void documentsOverSixteenMebibytesAreAnalysed()
    {
        const QByteArray big = fixtures::documentOfSize(1, 17 * 1024 * 1024);
        const QString file = path(QStringLiteral("big.bson"));
        QVERIFY(fixtures::writeFile(file, fixtures::concat({m_docs[0], big, m_docs[1]})));
        const auto p = analyze(file);
        QCOMPARE(p.status, CollectionProfile::Status::Complete);
        QCOMPARE(p.documents, 3u);
        QCOMPARE(p.sizes.max(), std::uint64_t(big.size()));
    }

    void limitReadsTheFirstDocuments()
    {
        AnalysisOptions options;
        options.selection.mode = AnalysisOptions::Mode::Limit;
        options.selection.count = 10;
        options.batchBytes = 100;
        const auto p = analyze(path(QStringLiteral("good.bson")), options);
        QCOMPARE(p.documents, 10u);
        std::uint64_t bytes = 0;
        for (int i = 0; i < 10; ++i)
            bytes += std::uint64_t(m_docs[i].size());
        QCOMPARE(p.sizes.sum(), bytes);
    }

    void sampleIsUniformSizedAndReproducible()
    {
        AnalysisOptions options;
        options.selection.mode = AnalysisOptions::Mode::Sample;
        options.selection.count = 50;
        options.selection.seed = 7;
        const auto a = analyze(path(QStringLiteral("good.bson")), options);
        const auto b = analyze(path(QStringLiteral("good.bson")), options);
        QCOMPARE(a.documents, 50u);
        QCOMPARE(a.sizes.sum(), b.sizes.sum());
        QVERIFY(a.mode.contains(QStringLiteral("sample 50 of 300")));
        options.selection.seed = 8;
        const auto c = analyze(path(QStringLiteral("good.bson")), options);
        QVERIFY(c.sizes.sum() != a.sizes.sum());
        options.selection.count = 1000; // more than there are: everything
        QCOMPARE(analyze(path(QStringLiteral("good.bson")), options).documents, 300u);
    }

    void cancellationReturnsAPartialResult()
    {
        std::atomic<bool> cancel{true};
        DumpFileSource source(path(QStringLiteral("good.bson")));
        const auto p = Analyzer::run(source, {}, &cancel);
        QCOMPARE(p.status, CollectionProfile::Status::Cancelled);
        QVERIFY(p.isPartial());
    }

    void progressIsReported()
    {
        DumpFileSource source(path(QStringLiteral("good.bson")));
        AnalysisOptions options;
        options.batchBytes = 512;
        std::uint64_t last = 0;
        int calls = 0;
        options.selection.mode = AnalysisOptions::Mode::Full;
        Analyzer::run(source, options, nullptr, [&](const Analyzer::Progress &p) {
            QVERIFY(p.documents >= last);
            last = p.documents;
            QCOMPARE(p.totalBytes.value_or(0), std::uint64_t(m_all.size()));
            // The count and the chart filling in say the same.
            QCOMPARE(p.sizesSoFar.total(), p.documents);
            ++calls;
        });
        QVERIFY(calls >= 1);
        QCOMPARE(last, 300u);
    }

    // A sample's progress counts the sample, not the file's bytes.
    void sampleProgressCountsTheSample()
    {
        DumpFileSource source(path(QStringLiteral("good.bson")));
        AnalysisOptions options;
        options.selection.mode = AnalysisOptions::Mode::Sample;
        options.selection.count = 100;
        options.batchBytes = 512;
        Analyzer::Progress last;
        Analyzer::run(source, options, nullptr, [&](const Analyzer::Progress &p) {
            QVERIFY(!p.totalBytes);
            QCOMPARE(p.totalDocuments.value_or(0), std::uint64_t(100));
            QVERIFY(p.documents <= 100);
            last = p;
        });
        QCOMPARE(last.documents, std::uint64_t(100));
    }
};

QTEST_GUILESS_MAIN(TestDumpFileSource)
#include "tst_dumpfilesource.moc"
