// Schema versions (issue 39): documents of three versions side by side, analysed through the one
// session the window and the CLI run (a dump file, worker threads). The version field is found;
// each version's share is counted; rare fields and mixed types are judged within each version's
// documents, and the whole collection's differences between versions are explained, not flagged.
#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "DumpAnalysis.h"
#include "VersionDocuments.h"
#include "bson/DocumentId.h"
#include "demo/DemoDataGenerator.h"
#include "explore/AnalysisSession.h"
#include "scan/ProfileCodec.h"
#include "shape/ShapeDetector.h"
#include "shape/ShapeQuery.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace oe;
using Kind = ShapeFlag::Kind;

namespace {

QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items)
        out << QString::fromUtf8(item);
    return out;
}

QString text(const ShapeFlag &f)
{
    return QStringLiteral("%1 %2 %3 %4/%5 [%6]%7")
        .arg(ShapeFlag::kindName(f.kind), QString::fromStdString(f.path), f.type)
        .arg(f.count)
        .arg(f.total)
        .arg(f.version ? f.version->label : QStringLiteral("all"),
             f.explainedBy.isEmpty() ? QString() : QStringLiteral(" explained"));
}

QStringList texts(const std::vector<ShapeFlag> &flags)
{
    QStringList out;
    for (const ShapeFlag &f : flags)
        out << text(f);
    return out;
}

QStringList sharesOf(const SchemaVersions &v)
{
    QStringList out;
    for (const SchemaVersions::Share &s : v.shares)
        out << QStringLiteral("%1=%2").arg(s.value).arg(s.documents);
    return out;
}

const ShapeFlag *find(const std::vector<ShapeFlag> &flags, Kind kind, const std::string &path,
                      const QString &type = {})
{
    for (const ShapeFlag &f : flags)
        if (f.kind == kind && f.path == path && f.type == type)
            return &f;
    return nullptr;
}

QStringList ids(const ShapeFlag &flag)
{
    QStringList out;
    for (const ShapeFlag::Example &e : flag.examples)
        out << DocumentId::toRelaxedJson(e.rawId);
    return out;
}

} // namespace

class TestSchemaVersions : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_files = 0;

    AnalysisResult analyse(const QList<QByteArray> &docs, const ShapeOptions &shape = {},
                           int threads = 2)
    {
        return fixtures::analyseDocuments(
            m_dir.filePath(QStringLiteral("versions%1.bson").arg(++m_files)), docs, shape, threads);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void threeVersionsAreFlaggedWithinEachVersion()
    {
        const AnalysisResult result = analyse(fixtures::versionedDocuments());
        const ShapeReport &shape = result.shape;
        QVERIFY(shape.measured);
        const SchemaVersions &v = shape.versions;
        QCOMPARE(int(v.source), int(SchemaVersions::Source::Detected));
        QCOMPARE(v.field, std::string("schema_version"));
        QCOMPARE(sharesOf(v), list({"1=900", "2=92", "3=8"}));
        // The whole collection's view: four flags, three of them the versions' differences.
        const QStringList whole = texts(shape.flags);
        QCOMPARE(whole, list({"rare_field email  8/1000 [all] explained",
                              "rare_field legacy_note  3/1000 [all]",
                              "mixed_types address object 98/1000 [all] explained",
                              "mixed_types phone array 8/100 [all] explained"}));
        // Within each version: the rare note of version 1, the old address of version 2.
        QCOMPARE(texts(v.flags), list({"rare_field legacy_note  3/900 [schema_version 1]",
                                       "mixed_types address string 2/92 [schema_version 2]"}));
        const ShapeFlag *note = find(v.flags, Kind::RareField, "legacy_note");
        QVERIFY(note);
        QCOMPARE(ids(*note), list({"10", "20", "30"}));
        const ShapeFlag *old = find(v.flags, Kind::MixedTypes, "address", QStringLiteral("string"));
        QVERIFY(old);
        QCOMPARE(ids(*old), list({"950", "960"}));
        QCOMPARE(ShapeQuery::of(*old).filter,
                 QStringLiteral(R"({ "schema_version" : 2, "address" : { "$type" : "string" } })"));
        QCOMPARE(int(ShapeQuery::of(*old).reach), int(ShapeQuery::Reach::Every));
        // What the views list: the real ones counted, the explained ones last.
        QCOMPARE(texts(shape.listed()),
                 texts(v.flags) + list({"rare_field email  8/1000 [all] explained",
                                        "mixed_types address object 98/1000 [all] explained",
                                        "mixed_types phone array 8/100 [all] explained"}));
        QCOMPARE(shape.count(Kind::RareField), std::size_t(1));
        QCOMPARE(shape.count(Kind::MixedTypes), std::size_t(1));
        QCOMPARE(shape.explained(), std::size_t(3));
        const ShapeFlag *email = find(shape.flags, Kind::RareField, "email");
        QVERIFY(email);
        QVERIFY2(email->explainedBy.contains(QStringLiteral("schema_version 3: in 100 % of its "
                                                            "documents")),
                 qPrintable(email->explainedBy));
        const ShapeFlag *phone =
            find(shape.flags, Kind::MixedTypes, "phone", QStringLiteral("array"));
        QVERIFY(phone);
        QVERIFY2(phone->explainedBy.contains(QStringLiteral("schema_version 2: string 100 %")) &&
                     phone->explainedBy.contains(QStringLiteral("schema_version 3: array 100 %")),
                 qPrintable(phone->explainedBy));
    }

    void documentsWithoutAVersionAreAVersionOfTheirOwn()
    {
        const AnalysisResult result = analyse(fixtures::versionedDocuments(400));
        const SchemaVersions &v = result.shape.versions;
        QCOMPARE(v.field, std::string("schema_version"));
        QCOMPARE(sharesOf(v), list({"1=500", "2=92", "3=8", "(none)=400"}));
        // The rare note is in three of the unversioned documents (_id 10, 20, 30).
        QCOMPARE(texts(v.flags), list({"mixed_types address string 2/92 [schema_version 2]",
                                       "rare_field legacy_note  3/400 [schema_version (none)]"}));
        const ShapeFlag *note = find(v.flags, Kind::RareField, "legacy_note");
        QCOMPARE(ShapeQuery::of(*note).filter,
                 QStringLiteral(R"({ "schema_version" : { "$nin" : [ 1, 2, 3 ] }, "legacy_note" : )"
                                R"({ "$exists" : true } })"));
    }

    // A version value no version has (an object) is one of the (none): a flag in (none) names
    // it by $nin, and the version field's own defects (the object among the numbers, its
    // sub-field) are the whole collection's, judged in no version and explained by none.
    void theVersionFieldsOwnFlagsAreTheCollections()
    {
        QList<QByteArray> docs = fixtures::versionedDocuments(400);
        docs << fixtures::bson(R"({"_id": 2000, "schema_version": {"draft": true},
                                   "legacy_note": "imported 2000"})");
        const AnalysisResult result = analyse(docs);
        const SchemaVersions &v = result.shape.versions;
        QCOMPARE(sharesOf(v), list({"1=500", "2=92", "3=8", "(none)=401"}));
        QCOMPARE(texts(v.flags), list({"mixed_types address string 2/92 [schema_version 2]",
                                       "rare_field legacy_note  4/401 [schema_version (none)]"}));
        const ShapeFlag *object =
            find(result.shape.flags, Kind::MixedTypes, "schema_version", QStringLiteral("object"));
        QVERIFY(object && object->explainedBy.isEmpty() && !object->version);
        const std::vector<ShapeFlag> listed = result.shape.listed();
        QVERIFY(find(listed, Kind::MixedTypes, "schema_version", QStringLiteral("object")));
        QVERIFY(find(listed, Kind::RareField, "schema_version.draft"));
        QCOMPARE(result.shape.count(Kind::MixedTypes), std::size_t(2));
    }

    void aCounterIsNotAVersion()
    {
        QList<QByteArray> docs;
        for (int i = 0; i < 200; ++i)
            docs << fixtures::bson(QStringLiteral(R"({"_id": %1, "version": %1, "v": 1})")
                                       .arg(i)
                                       .toUtf8()
                                       .constData());
        const AnalysisResult detected = analyse(docs);
        QVERIFY(!detected.shape.versions.inEffect());
        QVERIFY2(detected.shape.versions.note.startsWith(QStringLiteral("no schema version field")),
                 qPrintable(detected.shape.versions.note));
        ShapeOptions named;
        named.versions = ShapeOptions::Versions::Named;
        named.versionField = "version";
        const AnalysisResult asked = analyse(docs, named);
        QVERIFY(!asked.shape.versions.inEffect());
        QCOMPARE(asked.shape.versions.note,
                 QStringLiteral("version has more than 12 distinct values: a counter, not a "
                                "schema version"));
        // A field the scan did not look for says so; one it did is used.
        named.versionField = "v";
        const AnalysisResult byV = analyse(docs, named);
        QCOMPARE(int(byV.shape.versions.source), int(SchemaVersions::Source::Named));
        QCOMPARE(sharesOf(byV.shape.versions), list({"1=200"}));
        ShapeOptions other = named;
        other.versionField = "rev";
        ShapeReport later = ShapeDetector::detect(byV.profile, other, {});
        QCOMPARE(later.versions.note,
                 QStringLiteral("the version field rev was not looked for in every document: "
                                "analyse again with it named"));
        ShapeOptions off;
        off.versions = ShapeOptions::Versions::Off;
        QVERIFY(!ShapeDetector::detect(byV.profile, off, {}).versions.inEffect());
    }

    void stringVersionsAndNumbersOfAnyType()
    {
        // 2, 2.0 and NumberLong(2) are one version (the server finds them with {v: 2}); "v2" is
        // another.
        QList<QByteArray> docs;
        for (int i = 0; i < 100; ++i) {
            const char *value = i < 30   ? "2"
                                : i < 60 ? "2.0"
                                : i < 90 ? R"({"$numberLong": "2"})"
                                         : R"("v2")";
            docs << fixtures::bson(QStringLiteral(R"({"_id": %1, "_v": %2})")
                                       .arg(i)
                                       .arg(QLatin1String(value))
                                       .toUtf8()
                                       .constData());
        }
        const SchemaVersions v = analyse(docs).shape.versions;
        QCOMPARE(v.field, std::string("_v"));
        QCOMPARE(sharesOf(v), list({"2=90", "\"v2\"=10"}));
    }

    // The CLI prints the versions and their movement across the history; shape_outliers.csv
    // lists the flags within each version (and the explained ones last), schema_versions.csv each
    // version's share over the analyses, summary.csv the field and the shares.
    void theCliTheCsvAndTheHistoryAgree()
    {
        const QString history = m_dir.filePath(QStringLiteral("history.sqlite"));
        qputenv("OE_HISTORY_DB", history.toUtf8());
        const QString dump = m_dir.filePath(QStringLiteral("lazy.bson"));
        auto analyze = [&](int unversioned, const QString &out, const QStringList &extra = {}) {
            if (!fixtures::writeFile(dump,
                                     fixtures::concat(fixtures::versionedDocuments(unversioned))))
                qFatal("cannot write %s", qPrintable(dump));
            return runCli(QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                                      QStringLiteral("--out"), m_dir.filePath(out)} +
                          extra);
        };
        const CliRun first = analyze(400, QStringLiteral("first"));
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY2(
            first.out.contains(QStringLiteral(
                "versions by schema_version (found): 1 50.0 % (500), 2 9.2 % (92), 3 0.8 % (8), "
                "(none) 40.0 % (400); 3 flags of the whole collection explained by them\n")),
            qPrintable(first.out));
        QVERIFY2(first.out.contains(QStringLiteral("shape: 1 rare fields, 1 mixed types\n")),
                 qPrintable(first.out));
        // The lazy migration moved on: 300 more documents carry version 1.
        const CliRun second = analyze(100, QStringLiteral("second"));
        QVERIFY2(second.exitCode == 0, qPrintable(second.err));
        QVERIFY2(second.out.contains(QStringLiteral(
                     ": 1 50.0 % -> 80.0 %; 2 9.2 % -> 9.2 %; 3 0.8 % -> 0.8 %; (none) 40.0 % -> "
                     "10.0 %\n")),
                 qPrintable(second.out));
        QVERIFY(second.out.contains(QStringLiteral("versions over 2 analyses since ")));

        const QString dir = m_dir.filePath(QStringLiteral("second"));
        const QList<QStringList> flags =
            csvtest::readFile(dir + QStringLiteral("/shape_outliers.csv"));
        // Three of the hundred unversioned documents have the note: not rare among them any more,
        // so the whole collection's rare note is explained too.
        QCOMPARE(flags.size(), 6); // the header, one flag within a version, four explained
        const qsizetype version = flags.first().indexOf(QStringLiteral("version"));
        const qsizetype explained = flags.first().indexOf(QStringLiteral("explained_by"));
        const qsizetype path = flags.first().indexOf(QStringLiteral("path"));
        QVERIFY(version > 0 && explained > 0 && path > 0);
        QCOMPARE(flags[1][path] + QLatin1Char(' ') + flags[1][version],
                 QStringLiteral("address schema_version 2"));
        QVERIFY(flags[1][explained].isEmpty());
        QStringList explainedPaths;
        for (int r = 2; r < 6; ++r) {
            QVERIFY2(flags[r][explained].startsWith(
                         QStringLiteral("explained by the schema versions")) &&
                         flags[r][version].isEmpty(),
                     qPrintable(flags[r].join(QLatin1Char(','))));
            explainedPaths << flags[r][path];
        }
        QCOMPARE(explainedPaths, list({"email", "legacy_note", "address", "phone"}));
        const QList<QStringList> shares =
            csvtest::readFile(dir + QStringLiteral("/schema_versions.csv"));
        QCOMPARE(shares.size(), 5);
        QCOMPARE(shares[1].mid(0, 5), list({"schema_version", "1", "800", "0.8", "0"}));
        QCOMPARE(shares[2].mid(0, 5), list({"schema_version", "2", "92", "0.092", "1"}));
        QCOMPARE(shares[4].mid(0, 5), list({"schema_version", "(none)", "100", "0.1", "0"}));
        const QStringList points = shares[1][5].split(QLatin1Char('|'));
        QCOMPARE(points.size(), 2);
        QVERIFY2(points[0].endsWith(QStringLiteral(" 0.5")) &&
                     points[1].endsWith(QStringLiteral(" 0.8")),
                 qPrintable(shares[1][5]));
        const QList<QStringList> summary = csvtest::readFile(dir + QStringLiteral("/summary.csv"));
        QStringList rows;
        for (const QStringList &row : summary)
            if (row.first().startsWith(QStringLiteral("version")) ||
                row.first().startsWith(QStringLiteral("shape_")))
                rows << row.join(QLatin1Char('='));
        QCOMPARE(rows, list({"shape_flags=1", "shape_explained_by_versions=4",
                             "version_field=schema_version", "versions=1:800|2:92|3:8|(none):100",
                             "versions_note=", "shape_note="}));

        // Asked not to: the whole collection's four flags, none explained.
        const CliRun off = analyze(100, QStringLiteral("off"),
                                   {QStringLiteral("--version-field"), QStringLiteral("none")});
        QVERIFY2(off.exitCode == 0, qPrintable(off.err));
        QVERIFY2(!off.out.contains(QStringLiteral("versions by")), qPrintable(off.out));
        QCOMPARE(csvtest::readFile(m_dir.filePath(QStringLiteral("off/shape_outliers.csv"))).size(),
                 5);
        // A name no filter can hold is refused before anything is read.
        const CliRun dotted =
            analyze(100, QStringLiteral("dotted"),
                    {QStringLiteral("--version-field"), QStringLiteral("meta.v")});
        QCOMPARE(dotted.exitCode, 2);
        QCOMPARE(dotted.err.trimmed(),
                 QStringLiteral("outlier-explorer-cli: --version-field: a top-level field name, "
                                "without a dot or a "
                                "leading $ (got \"meta.v\")"));
        qunsetenv("OE_HISTORY_DB");
    }

    // The built-in demo's customer profiles: four versions (the oldest without a field), the
    // real outliers within them, and the rest explained: the fields and the address object of
    // the new versions, and the version 3 documents' extra fields (no outlier within version 3).
    // Version values are data: markup and CSV's own characters in them stay text in
    // schema_versions.csv, shape_outliers.csv (the label and the query) and the HTML report.
    void hostileVersionValuesStayText()
    {
        const QString markup = QStringLiteral("<img src=x onerror=1>");
        const QString csvish = QStringLiteral("a,\"b\"\nc");
        QList<QByteArray> docs;
        for (int i = 0; i < 300; ++i) {
            const QString version = i < 200 ? markup : csvish;
            // Within the second version, one document's x is a number: a flag of that version.
            const QString x = i >= 200 && i == 250 ? QStringLiteral("7") : QStringLiteral("\"s\"");
            docs << fixtures::bson(
                QStringLiteral("{\"_id\": %1, \"_v\": %2, \"x\": %3}")
                    .arg(i)
                    .arg(QString::fromUtf8(
                             QJsonDocument(QJsonArray{version}).toJson(QJsonDocument::Compact))
                             .mid(1)
                             .chopped(1),
                         i < 200 ? QStringLiteral("\"s\"") : x)
                    .toUtf8()
                    .constData());
        }
        const QString dump = m_dir.filePath(QStringLiteral("hostile.bson"));
        QVERIFY(fixtures::writeFile(dump, fixtures::concat(docs)));
        const QString out = m_dir.filePath(QStringLiteral("hostile"));
        CliRun r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                           QStringLiteral("--out"), out, QStringLiteral("--no-history")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QList<QStringList> shares =
            csvtest::readFile(out + QStringLiteral("/schema_versions.csv"));
        QCOMPARE(shares.size(), 3);
        QCOMPARE(shares[1].mid(0, 3),
                 (QStringList{QStringLiteral("_v"), QStringLiteral("\"<img src=x onerror=1>\""),
                              QStringLiteral("200")}));
        QCOMPARE(shares[2].mid(0, 3),
                 (QStringList{QStringLiteral("_v"), QStringLiteral("\"a,\\\"b\\\"\\nc\""),
                              QStringLiteral("100")}));
        const QList<QStringList> flags =
            csvtest::readFile(out + QStringLiteral("/shape_outliers.csv"));
        QCOMPARE(flags.size(), 2);
        const qsizetype version = flags.first().indexOf(QStringLiteral("version"));
        const qsizetype query = flags.first().indexOf(QStringLiteral("query"));
        QCOMPARE(flags[1][version], QStringLiteral("_v \"a,\\\"b\\\"\\nc\""));
        QVERIFY2(
            flags[1][query].startsWith(QStringLiteral("{ \"_v\" : \"a,\\\"b\\\"\\nc\", \"x\" : ")),
            qPrintable(flags[1][query]));
        const QString report = m_dir.filePath(QStringLiteral("hostile.html"));
        r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), dump,
                    QStringLiteral("--out"), report, QStringLiteral("--no-history"),
                    QStringLiteral("--quiet")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(html.readAll());
        QVERIFY(text.contains(QStringLiteral("&lt;img src=x onerror=1&gt;")));
        QVERIFY(!text.contains(markup));
    }

    void theDemoCustomersMigrateLazily()
    {
        const QString path = m_dir.filePath(QStringLiteral("customer_profiles.bson"));
        QString error;
        QVERIFY2(DemoDataGenerator::write(QStringLiteral("customer_profiles"), path, 0,
                                          DemoDataGenerator::kDemoSeed, &error),
                 qPrintable(error));
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = path;
        request.selection.mode = DocumentSelection::Mode::Full;
        const ShapeReport shape = AnalysisSession::run(request).shape;
        QCOMPARE(sharesOf(shape.versions), list({"1=2176", "2=200", "3=24", "(none)=600"}));
        QStringList real, explained;
        for (const ShapeFlag &f : shape.listed())
            (f.explainedBy.isEmpty() ? real : explained) << text(f);
        QCOMPARE(real, list({"rare_field fax  5/2176 [schema_version 1]",
                             "rare_field fax  2/600 [schema_version (none)]",
                             "mixed_types address string 4/200 [schema_version 2]",
                             "mixed_types loyalty_points string 1/24 [schema_version 3]"}));
        QCOMPARE(explained, list({"rare_field email  24/3000 [all] explained",
                                  "mixed_types address object 220/3000 [all] explained",
                                  "many_fields   24/3000 [all] explained"}));
    }

    void threadsAndASavedStateAgree()
    {
        const QList<QByteArray> docs = fixtures::versionedDocuments(300);
        const AnalysisResult one = analyse(docs, {}, 1);
        const AnalysisResult four = analyse(docs, {}, 4);
        QCOMPARE(sharesOf(four.shape.versions), sharesOf(one.shape.versions));
        QCOMPARE(texts(four.shape.listed()), texts(one.shape.listed()));
        for (std::size_t i = 0; i < one.shape.versions.flags.size(); ++i)
            QCOMPARE(ids(four.shape.versions.flags[i]), ids(one.shape.versions.flags[i]));
        // A scan's saved state keeps the versions (a resumed scan reports them as a whole one).
        const auto decoded = ProfileCodec::decode(ProfileCodec::encode(one.profile));
        QVERIFY(decoded);
        const ShapeReport again = ShapeDetector::detect(*decoded, {}, {});
        QCOMPARE(sharesOf(again.versions), sharesOf(one.shape.versions));
        QCOMPARE(texts(again.listed()), texts(one.shape.listed()));
    }
};

QTEST_GUILESS_MAIN(TestSchemaVersions)
#include "tst_schemaversions.moc"
