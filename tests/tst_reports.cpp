#include "BsonFixtures.h"
#include "CsvTestReader.h"
#include "analysis/OutlierDetector.h"
#include "analysis/ProfileBuilder.h"
#include "output/CsvWriter.h"
#include "report/ReportWriter.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace oe;

class TestReports : public QObject
{
    Q_OBJECT

private slots:
    void csvQuoting_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("encoded");
        QTest::newRow("plain") << QStringLiteral("abc") << QStringLiteral("abc");
        QTest::newRow("comma") << QStringLiteral("a,b") << QStringLiteral("\"a,b\"");
        QTest::newRow("quote") << QStringLiteral("say \"hi\"")
                               << QStringLiteral("\"say \"\"hi\"\"\"");
        QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
        QTest::newRow("carriage return") << QStringLiteral("a\rb") << QStringLiteral("\"a\rb\"");
        QTest::newRow("leading space") << QStringLiteral(" a") << QStringLiteral("\" a\"");
        QTest::newRow("json id") << QStringLiteral("{\"$oid\":\"65a1\"}")
                                 << QStringLiteral("\"{\"\"$oid\"\":\"\"65a1\"\"}\"");
        QTest::newRow("unicode") << QStringLiteral("caf\u00e9 \u6771")
                                 << QStringLiteral("caf\u00e9 \u6771");
        QTest::newRow("empty") << QString() << QString();
    }
    void csvQuoting()
    {
        QFETCH(QString, field);
        QFETCH(QString, encoded);
        QCOMPARE(CsvWriter::escape(field), encoded);
        CsvWriter csv({QStringLiteral("a"), QStringLiteral("b")});
        csv.addRow({field, QStringLiteral("x")});
        const auto rows = csvtest::parse(csv.bytes());
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1], (QStringList{field, QStringLiteral("x")}));
        QVERIFY(csv.bytes().endsWith("\r\n"));
        QVERIFY(!csv.bytes().startsWith("\xEF\xBB\xBF"));
    }

    // A text a spreadsheet would run as a formula starts with an apostrophe (shown as text);
    // a number stays a number (issue 53: field names and _ids are hostile).
    void csvFormulasAreText_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("encoded");
        QTest::newRow("equals") << QStringLiteral("=1+1") << QStringLiteral("'=1+1");
        QTest::newRow("hyperlink") << QStringLiteral("=HYPERLINK(\"http://x\",\"y\")")
                                   << QStringLiteral("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
        QTest::newRow("at") << QStringLiteral("@SUM(A1)") << QStringLiteral("'@SUM(A1)");
        QTest::newRow("plus text") << QStringLiteral("+cmd") << QStringLiteral("'+cmd");
        QTest::newRow("minus text") << QStringLiteral("-x") << QStringLiteral("'-x");
        QTest::newRow("tab") << QStringLiteral("\tx") << QStringLiteral("'\tx");
        QTest::newRow("carriage return") << QStringLiteral("\rx") << QStringLiteral("\"'\rx\"");
        QTest::newRow("negative number") << QStringLiteral("-5") << QStringLiteral("-5");
        QTest::newRow("signed exponent") << QStringLiteral("+1e3") << QStringLiteral("+1e3");
        QTest::newRow("negative fraction") << QStringLiteral("-0.25") << QStringLiteral("-0.25");
        QTest::newRow("equals inside") << QStringLiteral("a=b") << QStringLiteral("a=b");
    }
    void csvFormulasAreText()
    {
        QFETCH(QString, field);
        QFETCH(QString, encoded);
        QCOMPARE(CsvWriter::escape(field), encoded);
    }

    void reportsHaveTheContractColumns()
    {
        ProfileBuilder builder;
        const QList<QByteArray> docs = {
            fixtures::bson(R"({"_id": "user-42", "tags": ["a", "b", "c"]})"),
            fixtures::bson(R"({"_id": 42, "tags": ["a"]})"),
            fixtures::bson(R"({"_id": {"$oid": "65a1b2c3d4e5f60718293a4b"}, "tags": []})")};
        for (int i = 0; i < docs.size(); ++i)
            QVERIFY(builder.addDocument(reinterpret_cast<const std::uint8_t *>(docs[i].constData()),
                                        std::uint32_t(docs[i].size()), std::uint64_t(i), nullptr));
        DetectionOptions detection;
        detection.arrayThreshold = 0;
        detection.sizeThreshold = 0;
        const CollectionProfile profile = builder.takeProfile();
        const OutlierReport outliers = OutlierDetector::detect(profile, detection);
        const auto recs = SplitRecommendation::recommend(profile);
        QTemporaryDir dir;
        QString error;
        QStringList written;
        QVERIFY2(ReportWriter::write(dir.filePath(QStringLiteral("reports/nested")),
                                     {profile, outliers, recs, detection, 5}, &error, &written),
                 qPrintable(error));
        QCOMPARE(written.size(), 10);
        auto read = [&](const char *name) {
            QFile f(dir.filePath(QStringLiteral("reports/nested/") + QString::fromLatin1(name)));
            if (!f.open(QIODevice::ReadOnly))
                qFatal("missing %s", name);
            return csvtest::parse(f.readAll());
        };
        QCOMPARE(read("size_histogram.csv").first(),
                 (QStringList{QStringLiteral("bin_lower"), QStringLiteral("bin_upper"),
                              QStringLiteral("count"), QStringLiteral("outliers")}));
        QCOMPARE(read("fields.csv").first().mid(0, 11),
                 QStringLiteral("path,types,present,arrays,len_min,len_p50,len_p90,len_p99,len_max,"
                                "len_mean,bytes_total")
                     .split(QLatin1Char(',')));
        QCOMPARE(read("fields.csv").first().mid(18),
                 QStringLiteral("type_counts,element_type_counts,distinct_keys,keys_as_data")
                     .split(QLatin1Char(',')));
        QCOMPARE(read("shape_outliers.csv"),
                 (QList<QStringList>{QStringLiteral("kind,path,type,share,count,total,detail,"
                                                    "example_ids,example_doc_indexes,query,"
                                                    "version,explained_by,fields")
                                         .split(QLatin1Char(','))}));
        QCOMPARE(read("schema_versions.csv"),
                 (QList<QStringList>{QStringLiteral("field,value,documents,share,flags,history")
                                         .split(QLatin1Char(','))}));
        QCOMPARE(read("array_histograms.csv").first(),
                 QStringLiteral("path,bin_lower,bin_upper,count").split(QLatin1Char(',')));
        const auto outlierRows = read("outliers.csv");
        QCOMPARE(outlierRows.first().mid(0, 5),
                 QStringLiteral("_id,bson_size,path,array_length,reason").split(QLatin1Char(',')));
        QStringList ids;
        for (const auto &row : outlierRows.mid(1))
            if (row[4] == QLatin1String("array_absolute"))
                ids << row[0];
        QCOMPARE(ids, (QStringList{QStringLiteral("\"user-42\""), QStringLiteral("42")}));
        QStringList sizeIds;
        for (const auto &row : outlierRows.mid(1))
            if (row[4] == QLatin1String("size_absolute"))
                sizeIds << row[0];
        QVERIFY(sizeIds.contains(QStringLiteral("{\"$oid\":\"65a1b2c3d4e5f60718293a4b\"}")));
        const auto summary = read("summary.csv");
        QStringList metrics;
        for (const auto &row : summary.mid(1))
            metrics << row[0];
        for (const char *m :
             {"documents", "size_min", "size_p50", "size_p90", "size_p95", "size_p99", "size_max",
              "size_mean", "size_total", "outlier_documents", "size_threshold"})
            QVERIFY2(metrics.contains(QString::fromLatin1(m)), m);
        QCOMPARE(summary[1], (QStringList{QStringLiteral("documents"), QStringLiteral("3")}));
        const auto fields = read("fields.csv");
        QCOMPARE(fields[2][0], QStringLiteral("tags"));
        QCOMPARE(fields[2][1], QStringLiteral("array<string>"));
        QCOMPARE(fields[2][3], QStringLiteral("3"));    // arrays
        QCOMPARE(fields[2][4], QStringLiteral("0"));    // len_min
        QCOMPARE(fields[2][8], QStringLiteral("3"));    // len_max
        QCOMPARE(fields[2][9], QStringLiteral("1.33")); // len_mean
    }

    void unwritableDirectoryFailsCleanly()
    {
        QTemporaryDir dir;
        const QString blocker = dir.filePath(QStringLiteral("file"));
        QVERIFY(fixtures::writeFile(blocker, "x"));
        ProfileBuilder builder;
        const CollectionProfile profile = builder.takeProfile();
        DetectionOptions detection;
        const OutlierReport outliers = OutlierDetector::detect(profile, detection);
        const std::vector<SplitRecommendation> recs;
        QString error;
        QVERIFY(!ReportWriter::write(blocker + QStringLiteral("/sub"),
                                     {profile, outliers, recs, detection, 5}, &error));
        QVERIFY(error.contains(blocker));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }
};

QTEST_GUILESS_MAIN(TestReports)
#include "tst_reports.moc"
