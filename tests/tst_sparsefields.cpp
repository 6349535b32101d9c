// The attribute pattern's case (issue 39): a catalogue of 300 sparse top-level fields, each in a
// few percent of the products, is named as one sparse field family with its members, through the
// one analysis session the window and the CLI run; its members' own rare-field flags are
// explained by it; and what is not such a family is not named: one document's extra fields,
// sparse fields holding objects, too few fields, documents holding most of them.
#include "BsonFixtures.h"
#include "CatalogDocuments.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "DumpAnalysis.h"
#include "explore/AnalysisSession.h"
#include "shape/ShapeDetector.h"
#include "shape/ShapeQuery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

#include <bson/bson.h>

using namespace oe;
using Kind = ShapeFlag::Kind;

namespace {

const ShapeFlag *familyOf(const ShapeReport &report)
{
    for (const ShapeFlag &f : report.flags)
        if (f.kind == Kind::SparseFields)
            return &f;
    return nullptr;
}

} // namespace

class TestSparseFields : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_files = 0;

    QString write(const QList<QByteArray> &docs)
    {
        const QString path = m_dir.filePath(QStringLiteral("sparse%1.bson").arg(++m_files));
        if (!fixtures::writeFile(path, fixtures::concat(docs)))
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }
    ShapeReport shapeOf(const QList<QByteArray> &docs)
    {
        return fixtures::analyseDocuments(
                   m_dir.filePath(QStringLiteral("sparse%1.bson").arg(++m_files)), docs)
            .shape;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aCatalogueOf300SparseFieldsIsOneFamily()
    {
        const QList<QByteArray> docs = fixtures::catalogDocuments();
        const ShapeReport report = shapeOf(docs);
        const ShapeFlag *family = familyOf(report);
        QVERIFY(family);
        QCOMPARE(family->count, 300u);
        QCOMPARE(family->total, 304u); // with _id, name, price, category
        QCOMPARE(family->members.size(), std::size_t(300));
        QVERIFY(family->path.empty());
        QVERIFY2(family->detail.startsWith(QStringLiteral(
                     "300 top-level fields each in under 10 % of the documents (median 2.")),
                 qPrintable(family->detail));
        QVERIFY2(family->detail.contains(QStringLiteral("of types double, string, bool, int; a "
                                                        "document holds 7.0 of them on average")),
                 qPrintable(family->detail));
        QCOMPARE(family->examples.size(), std::size_t(3));
        QCOMPARE(int(ShapeQuery::of(*family).reach), int(ShapeQuery::Reach::Examples));
        // Members most present first; every attribute, none of the other fields.
        std::set<std::string> names(family->members.begin(), family->members.end());
        QCOMPARE(names.size(), std::size_t(300));
        QVERIFY(!names.count("name") && !names.count("price") && names.count("attr_000") &&
                names.count("attr_299"));
        QCOMPARE(report.count(Kind::SparseFields), std::size_t(1));
        QCOMPARE(report.count(Kind::RareField), std::size_t(0));
    }

    // Two attributes per product: each is in under 1 % of them, a rare field; as members of the
    // family they are explained by it and not counted.
    void rareMembersAreExplainedByTheFamily()
    {
        const ShapeReport report = shapeOf(fixtures::catalogDocuments(2000, 2));
        QVERIFY(familyOf(report));
        QCOMPARE(report.count(Kind::RareField), std::size_t(0));
        std::size_t explained = 0;
        for (const ShapeFlag &f : report.listed())
            if (f.kind == Kind::RareField) {
                QVERIFY2(f.explainedBy.startsWith(QStringLiteral("one of the 300 sparse fields")),
                         qPrintable(f.explainedBy));
                QCOMPARE(f.explainer, ShapeFlag::Explainer::SparseFamily); // not the versions
                ++explained;
            }
        QVERIFY(explained > 0);
        QCOMPARE(report.explained(), explained);
    }

    // A 1 MiB binary in 4 of the products (issue 53, defect 7) is a big scalar, the subset or
    // GridFS remedy's: never a member moved into the array and its index; its own rare-field
    // flag stays unexplained, and says nothing of versions.
    void aBigValueIsNoMember()
    {
        QList<QByteArray> docs = fixtures::catalogDocuments(2000, 7);
        const QByteArray blob(1024 * 1024, 'b');
        for (int i : {10, 500, 1000, 1500}) {
            bson_t doc, out = BSON_INITIALIZER;
            QVERIFY(bson_init_static(&doc,
                                     reinterpret_cast<const std::uint8_t *>(docs[i].constData()),
                                     std::size_t(docs[i].size())));
            bson_concat(&out, &doc);
            bson_append_binary(&out, "blob", -1, BSON_SUBTYPE_BINARY,
                               reinterpret_cast<const std::uint8_t *>(blob.constData()),
                               std::uint32_t(blob.size()));
            docs[i] =
                QByteArray(reinterpret_cast<const char *>(bson_get_data(&out)), qsizetype(out.len));
            bson_destroy(&out);
        }
        const ShapeReport report = shapeOf(docs);
        const ShapeFlag *family = familyOf(report);
        QVERIFY(family);
        QCOMPARE(family->members.size(), std::size_t(300));
        QVERIFY(std::find(family->members.begin(), family->members.end(), "blob") ==
                family->members.end());
        bool bigScalar = false;
        for (const ShapeFlag &f : report.listed()) {
            if (f.path != "blob")
                continue;
            bigScalar = bigScalar || f.kind == Kind::BigScalar;
            QVERIFY2(f.explainedBy.isEmpty(), qPrintable(f.explainedBy));
            QCOMPARE(f.explainer, ShapeFlag::Explainer::None);
        }
        QVERIFY(bigScalar);
    }

    void whatIsNotAFamily()
    {
        // One document with 300 extra fields: a many-field outlier, not a family.
        QList<QByteArray> one;
        for (int i = 0; i < 1000; ++i) {
            QStringList extra;
            if (i == 7)
                for (int k = 0; k < 300; ++k)
                    extra << QStringLiteral(R"(, "x%1": %1)").arg(k);
            one << fixtures::bson(QStringLiteral(R"({"_id": %1, "n": 1%2})")
                                      .arg(i)
                                      .arg(extra.join(QString()))
                                      .toUtf8()
                                      .constData());
        }
        QVERIFY(!familyOf(shapeOf(one)));
        // Sparse fields that hold objects: sub-documents, not attributes.
        QList<QByteArray> objects;
        for (int i = 0; i < 2000; ++i)
            objects << fixtures::bson(
                QStringLiteral(R"({"_id": %1, "o%2": {"a": 1}, "o%3": {"b": 2}})")
                    .arg(i)
                    .arg(i % 100)
                    .arg((i * 7 + 3) % 100)
                    .toUtf8()
                    .constData());
        QVERIFY(!familyOf(shapeOf(objects)));
        // Too few fields (10 sparse ones), or documents holding most of the 30.
        QVERIFY(!familyOf(shapeOf(fixtures::catalogDocuments(2000, 7).mid(0, 20))));
        QList<QByteArray> dense;
        for (int i = 0; i < 300; ++i) {
            QStringList fields;
            for (int k = 0; k < 30; ++k)
                if ((i + k) % 30 != 0)
                    fields << QStringLiteral(R"("f%1": %1)").arg(k);
            dense << fixtures::bson(QStringLiteral(R"({"_id": %1, %2})")
                                        .arg(i)
                                        .arg(fields.join(QStringLiteral(", ")))
                                        .toUtf8()
                                        .constData());
        }
        QVERIFY(!familyOf(shapeOf(dense)));
    }

    // The CLI says it in one line; shape_outliers.csv's `fields` column holds the members as a
    // JSON array of names.
    void theCliAndTheCsvNameTheMembers()
    {
        const QString dump = write(fixtures::catalogDocuments());
        const QString out = m_dir.filePath(QStringLiteral("cli"));
        const CliRun r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                                 QStringLiteral("--out"), out, QStringLiteral("--no-history")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("shape: 1 sparse field families\n")),
                 qPrintable(r.out));
        const QList<QStringList> rows =
            csvtest::readFile(out + QStringLiteral("/shape_outliers.csv"));
        const qsizetype fields = rows.first().indexOf(QStringLiteral("fields"));
        QVERIFY(fields > 0);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1].first(), QStringLiteral("sparse_fields"));
        const QJsonArray names = QJsonDocument::fromJson(rows[1][fields].toUtf8()).array();
        QCOMPARE(names.size(), 300);
        QVERIFY(names.contains(QStringLiteral("attr_123")));
    }

    // The family's thresholds are options: members each in under 1 % of the documents (the
    // median attribute is in 2.35 %), or a family of at least 400 fields, name none; a bad
    // value is one line.
    void theThresholdsAreOptions()
    {
        const QString dump = write(fixtures::catalogDocuments());
        const auto analyse = [&](const QStringList &more) {
            return runCli(QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                                      QStringLiteral("--out"),
                                      m_dir.filePath(QStringLiteral("thresholds")),
                                      QStringLiteral("--no-history")} +
                          more);
        };
        for (const QStringList &more :
             {QStringList{QStringLiteral("--sparse-share"), QStringLiteral("1")},
              QStringList{QStringLiteral("--sparse-min-fields"), QStringLiteral("400")}}) {
            const CliRun r = analyse(more);
            QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("shape: ")) &&
                         !r.out.contains(QStringLiteral("sparse field families")),
                     qPrintable(r.out + r.err));
        }
        const CliRun wide = analyse({QStringLiteral("--sparse-share"), QStringLiteral("5"),
                                     QStringLiteral("--sparse-min-fields"), QStringLiteral("300")});
        QVERIFY2(wide.out.contains(QStringLiteral("1 sparse field families")),
                 qPrintable(wide.out + wide.err));
        const CliRun bad = analyse({QStringLiteral("--sparse-min-fields"), QStringLiteral("1")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--sparse-min-fields")) &&
                     bad.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(bad.err));
    }
};

QTEST_GUILESS_MAIN(TestSparseFields)
#include "tst_sparsefields.moc"
