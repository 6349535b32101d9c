// The schema outliers of shape (issue 37), each on documents built to have it and its absence
// on the same documents without it, through the one analysis session the window and the CLI
// run (a dump file, two worker threads): rare fields, mixed types (values and array elements;
// int, long, double apart; null apart from missing), keys used as data, big scalars, documents
// with far more fields or far deeper nesting than the rest; and the bounds on hostile shapes.
#include "BsonFixtures.h"
#include "DumpAnalysis.h"
#include "analysis/DataKeyFolder.h"
#include "analysis/ProfileBuilder.h"
#include "bson/DocumentId.h"
#include "explore/AnalysisSession.h"
#include "shape/ShapeDetector.h"

#include <QTemporaryDir>
#include <QTest>

#include <bson/bson.h>

#include <functional>

using namespace oe;
using Kind = ShapeFlag::Kind;

namespace {

constexpr int kDocuments = 1000;

// The base document: every field in every document, one type each.
QString base(int i)
{
    return QStringLiteral(R"({"_id": %1, "name": "u%1", "amount": %1, "tags": [1, 2, 3],
                             "stats": {"views": %1, "likes": 1}})")
        .arg(i);
}

// `base` with `extra` (a JSON member list, or empty) added at the top level.
QByteArray documentWith(int i, const QString &extra)
{
    QString json = base(i);
    if (!extra.isEmpty())
        json = json.left(json.lastIndexOf(QLatin1Char('}'))) + QStringLiteral(", ") + extra +
               QStringLiteral("}");
    return fixtures::bson(json.toUtf8().constData());
}

// `documentWith(i, {})` with {deep: {n: {n: ... {v: 1}}}}: `levels` levels in all, built with
// libbson (its JSON reader stops at 100 levels of its own).
QByteArray deepDocument(int i, int levels)
{
    bson_t *inner = bson_new();
    BSON_APPEND_INT32(inner, "v", 1);
    for (int level = 2; level < levels; ++level) {
        bson_t *outer = bson_new();
        BSON_APPEND_DOCUMENT(outer, "n", inner);
        bson_destroy(inner);
        inner = outer;
    }
    const QByteArray plain = documentWith(i, {});
    bson_t doc;
    bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(plain.constData()),
                     std::size_t(plain.size()));
    bson_t *copy = bson_copy(&doc);
    BSON_APPEND_DOCUMENT(copy, "deep", inner);
    const QByteArray out(reinterpret_cast<const char *>(bson_get_data(copy)), qsizetype(copy->len));
    bson_destroy(copy);
    bson_destroy(inner);
    return out;
}

using Extra = std::function<QString(int)>;

QList<QByteArray> documents(const Extra &extra = {})
{
    QList<QByteArray> docs;
    for (int i = 0; i < kDocuments; ++i)
        docs << documentWith(i, extra ? extra(i) : QString());
    return docs;
}

QString ids(const ShapeFlag &flag)
{
    QStringList out;
    for (const ShapeFlag::Example &e : flag.examples)
        out << DocumentId::toRelaxedJson(e.rawId);
    return out.join(QLatin1Char(' '));
}

const ShapeFlag *find(const ShapeReport &report, Kind kind, const std::string &path = {},
                      const QString &type = {})
{
    for (const ShapeFlag &f : report.flags)
        if (f.kind == kind && f.path == path && (type.isEmpty() || f.type == type))
            return &f;
    return nullptr;
}

QString flagsText(const ShapeReport &report)
{
    QStringList lines;
    for (const ShapeFlag &f : report.flags)
        lines << QStringLiteral("%1 %2 %3 %4/%5 [%6] %7")
                     .arg(ShapeFlag::kindName(f.kind), QString::fromStdString(f.path), f.type)
                     .arg(f.count)
                     .arg(f.total)
                     .arg(ids(f), f.detail);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestShapeDetector : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_files = 0;

    AnalysisResult analyse(const QList<QByteArray> &docs, const ShapeOptions &shape = {},
                           int threads = 2)
    {
        return fixtures::analyseDocuments(
            m_dir.filePath(QStringLiteral("shape%1.bson").arg(++m_files)), docs, shape, threads);
    }
    ShapeReport shapeOf(const QList<QByteArray> &docs, const ShapeOptions &shape = {})
    {
        const AnalysisResult result = analyse(docs, shape);
        if (!result.shape.measured)
            qFatal("shape not measured: %s", qPrintable(result.shape.why));
        return result.shape;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void theBaseDocumentsHaveNoShapeOutliers()
    {
        const ShapeReport report = shapeOf(documents());
        QVERIFY2(report.flags.empty(), qPrintable(flagsText(report)));
    }

    void rareFieldsWithTheirDocuments()
    {
        const ShapeReport report = shapeOf(documents([](int i) {
            QString extra;
            if (i == 10 || i == 500 || i == 900)
                extra = QStringLiteral(R"("legacyFlag": true)");
            if (i == 3 || i == 4)
                extra = QStringLiteral(R"("audit": {"by": "x", "at": 1})");
            return extra;
        }));
        const ShapeFlag *rare = find(report, Kind::RareField, "legacyFlag");
        QVERIFY2(rare, qPrintable(flagsText(report)));
        QCOMPARE(rare->count, 3u);
        QCOMPARE(rare->total, std::uint64_t(kDocuments));
        QCOMPARE(ids(*rare), QStringLiteral("10 500 900"));
        // The outermost rare path only: audit.by and audit.at are rare with it.
        QVERIFY(find(report, Kind::RareField, "audit"));
        QVERIFY(!find(report, Kind::RareField, "audit.by"));
        QCOMPARE(report.count(Kind::RareField), std::size_t(2));
    }

    void aCommonFieldIsRareOnlyUnderAHigherShare()
    {
        const auto docs = documents(
            [](int i) { return i % 50 == 0 ? QStringLiteral(R"("promo": 1)") : QString(); });
        QVERIFY(!find(shapeOf(docs), Kind::RareField, "promo")); // 2 % of the documents
        ShapeOptions options;
        options.rareShare = 0.05;
        const ShapeReport higher = shapeOf(docs, options); // (find points into it)
        const ShapeFlag *rare = find(higher, Kind::RareField, "promo");
        QVERIFY(rare);
        QCOMPARE(rare->count, 20u);
    }

    // int, long, double and decimal apart; null apart from missing.
    void minorityTypesWithTheirDocuments()
    {
        QList<QByteArray> docs;
        for (int i = 0; i < kDocuments; ++i) {
            QString json = base(i);
            if (i == 7 || i == 507)
                json.replace(QStringLiteral(R"("amount": %1,)").arg(i),
                             QStringLiteral(R"("amount": "%1",)").arg(i));
            else if (i == 8 || i == 9 || i == 10)
                json.replace(QStringLiteral(R"("amount": %1,)").arg(i),
                             QStringLiteral(R"("amount": {"$numberLong": "%1"},)").arg(i));
            else if (i == 20)
                json.replace(QStringLiteral(R"("amount": %1,)").arg(i),
                             QStringLiteral(R"("amount": null,)"));
            else if (i >= 30 && i < 35)
                json.replace(QStringLiteral(R"("amount": %1,)").arg(i), QString());
            docs << fixtures::bson(json.toUtf8().constData());
        }
        const ShapeReport mixed = shapeOf(docs);
        const ShapeFlag *string = find(mixed, Kind::MixedTypes, "amount", QStringLiteral("string"));
        QVERIFY2(string, qPrintable(flagsText(mixed)));
        QCOMPARE(string->count, 2u);
        QCOMPARE(string->total, std::uint64_t(kDocuments - 5)); // missing is not a type
        QCOMPARE(ids(*string), QStringLiteral("7 507"));
        QVERIFY(string->detail.contains(QStringLiteral("int 99.")));
        const ShapeFlag *longs = find(mixed, Kind::MixedTypes, "amount", QStringLiteral("long"));
        QVERIFY(longs);
        QCOMPARE(longs->count, 3u);
        const ShapeFlag *null = find(mixed, Kind::MixedTypes, "amount", QStringLiteral("null"));
        QVERIFY(null);
        QCOMPARE(ids(*null), QStringLiteral("20"));
        QCOMPARE(mixed.count(Kind::MixedTypes), std::size_t(3));
        // Missing in 5 documents: not a type, and 0.5 % is rare only for the field as a whole.
        QVERIFY(!find(mixed, Kind::RareField, "amount"));
    }

    void aMinorityTypeIsOneUnderTheChosenShare()
    {
        QList<QByteArray> docs;
        for (int i = 0; i < kDocuments; ++i) {
            QString json = base(i);
            if (i % 5 == 0) // 20 %: a mix, but no minority under the default 10 %
                json.replace(QStringLiteral(R"("amount": %1,)").arg(i),
                             QStringLiteral(R"("amount": %1.5,)").arg(i));
            docs << fixtures::bson(json.toUtf8().constData());
        }
        QVERIFY(!find(shapeOf(docs), Kind::MixedTypes, "amount"));
        ShapeOptions options;
        options.mixedShare = 0.25;
        const ShapeReport wider = shapeOf(docs, options); // (find points into it)
        const ShapeFlag *d = find(wider, Kind::MixedTypes, "amount");
        QVERIFY(d);
        QCOMPARE(d->type, QStringLiteral("double"));
        QCOMPARE(d->count, 200u);
    }

    void mixedElementTypesInsideArrays()
    {
        const auto docs = documents([](int i) {
            return i == 11 || i == 600 ? QStringLiteral(R"("codes": [1, 2, "three", 4])")
                                       : QStringLiteral(R"("codes": [1, 2, 3])");
        });
        const ShapeReport report = shapeOf(docs);
        const ShapeFlag *f =
            find(report, Kind::MixedElementTypes, "codes", QStringLiteral("string"));
        QVERIFY2(f, qPrintable(flagsText(report)));
        QCOMPARE(f->count, 2u);
        QCOMPARE(f->total, std::uint64_t(3 * kDocuments + 2));
        QCOMPARE(ids(*f), QStringLiteral("11 600"));
        QVERIFY(!find(report, Kind::MixedTypes, "codes")); // the values are all arrays
        QVERIFY(!find(shapeOf(documents([](int) { return QStringLiteral(R"("codes": [1, 2])"); })),
                      Kind::MixedElementTypes, "codes"));
    }

    // One key per day: reported once as daily.<key>, with the documents holding the most keys.
    void keysUsedAsDataAreOnePath()
    {
        const auto docs = documents([](int i) {
            QStringList days;
            const int n = i == 321 ? 40 : 3;
            for (int d = 0; d < n; ++d)
                days << QStringLiteral(R"("2024-%1-%2": {"views": %3, "hits": [1, 2]})")
                            .arg(1 + (i + d) / 28 % 12, 2, 10, QLatin1Char('0'))
                            .arg(1 + (i + d) % 28, 2, 10, QLatin1Char('0'))
                            .arg(d);
            return QStringLiteral(R"("daily": {%1})").arg(days.join(QStringLiteral(", ")));
        });
        const AnalysisResult result = analyse(docs);
        const ShapeFlag *f = find(result.shape, Kind::KeysAsData, "daily");
        QVERIFY2(f, qPrintable(flagsText(result.shape)));
        QCOMPARE(ids(*f).section(QLatin1Char(' '), 0, 0), QStringLiteral("321"));
        QVERIFY(f->total >= 300);
        QCOMPARE(f->count, f->total); // every key is a date
        QVERIFY(result.profile.field("daily.<key>"));
        QVERIFY(result.profile.field("daily.<key>.views"));
        QCOMPARE(result.profile.field("daily.<key>")->presentDocuments, std::uint64_t(kDocuments));
        for (const FieldProfile &p : result.profile.fields)
            QVERIFY2(p.path.rfind("daily.2024", 0) != 0, p.path.c_str());
        QCOMPARE(result.profile.field("daily")->shape.keyCounts.max(), 40u);
        // An array under keys that differ per document has no one path a split could name.
        const SplitRecommendation *hits = result.recommendationFor("daily.<key>.hits");
        QVERIFY(hits);
        QVERIFY(!hits->splittable);
        QVERIFY(hits->explanation.contains(QStringLiteral("keys used as data")));
        QCOMPARE(result.preferredSplitPath(), std::string("tags"));
    }

    // Sixty fixed keys in every document are a schema, not data; keys named like a schema but
    // each document using a few of hundreds are data.
    void fixedKeysAreNotDataSparseKeysAre()
    {
        const auto fixed = documents([](int i) {
            QStringList keys;
            for (int k = 0; k < 60; ++k)
                keys << QStringLiteral(R"("f%1": %2)").arg(k).arg(i);
            return QStringLiteral(R"("wide": {%1})").arg(keys.join(QStringLiteral(", ")));
        });
        const AnalysisResult wide = analyse(fixed);
        QVERIFY(!find(wide.shape, Kind::KeysAsData, "wide"));
        QVERIFY(wide.profile.field("wide.f59"));
        QCOMPARE(wide.profile.field("wide")->shape.distinctKeys, 60u);
        const auto sparse = documents([](int i) {
            return QStringLiteral(R"("likedBy": {"user_%1": 1, "user_%2": 1})")
                .arg(i % 400)
                .arg((i * 7) % 400);
        });
        const AnalysisResult likes = analyse(sparse);
        const ShapeFlag *f = find(likes.shape, Kind::KeysAsData, "likedBy");
        QVERIFY2(f, qPrintable(flagsText(likes.shape)));
        QCOMPARE(f->count, 0u); // none looks like data: folded for being sparse
        QVERIFY(likes.profile.field("likedBy.<key>"));
    }

    void bigScalarsByPathWithTheirDocuments()
    {
        const QString big(300000, QLatin1Char('p'));
        const QByteArray blob = QByteArray(400000, 'b').toBase64();
        const auto docs = documents([&](int i) {
            if (i == 42 || i == 43)
                return QStringLiteral(R"("payload": "%1")").arg(i == 43 ? big + big : big);
            if (i == 44)
                return QStringLiteral(R"("pdf": {"$binary": {"base64": "%1", "subType": "00"}})")
                    .arg(QString::fromLatin1(blob));
            return QString();
        });
        const ShapeReport report = shapeOf(docs);
        const ShapeFlag *payload = find(report, Kind::BigScalar, "payload");
        QVERIFY2(payload, qPrintable(flagsText(report)));
        QCOMPARE(payload->count, 2u);
        QCOMPARE(ids(*payload), QStringLiteral("43 42")); // the biggest first
        QVERIFY(find(report, Kind::BigScalar, "pdf"));
        ShapeOptions options;
        options.bigScalarBytes = 1024 * 1024;
        QCOMPARE(shapeOf(docs, options).count(Kind::BigScalar), std::size_t(0));
    }

    void documentsWithFarMoreFieldsOrDeeperNesting()
    {
        auto docs = documents([](int i) {
            QStringList extra;
            if (i == 77)
                for (int k = 0; k < 300; ++k)
                    extra << QStringLiteral(R"("extra%1": %1)").arg(k);
            return extra.join(QStringLiteral(", "));
        });
        docs[99] = deepDocument(99, 100); // the hostile depth
        const ShapeReport report = shapeOf(docs);
        const ShapeFlag *many = find(report, Kind::ManyFields);
        QVERIFY2(many, qPrintable(flagsText(report)));
        QCOMPARE(ids(*many), QStringLiteral("77 99")); // 99 holds 100 fields nested
        const ShapeFlag *deep = find(report, Kind::DeepNesting);
        QVERIFY(deep);
        QCOMPARE(deep->count, 1u);
        QCOMPARE(ids(*deep), QStringLiteral("99"));
        QVERIFY(deep->detail.contains(QStringLiteral("max 100")));
        // 300 sibling fields of one document are one rare-field flag.
        const ShapeFlag *rare = find(report, Kind::RareField, "extra0");
        QVERIFY(rare);
        QVERIFY(rare->detail.contains(QStringLiteral("299 more fields")));
        QCOMPARE(report.count(Kind::RareField), std::size_t(2)); // extra0…, deep
    }

    // Keys past the builder's cap are counted, not stored: the tree stays bounded.
    void distinctKeysPastTheCapAreCountedNotStored()
    {
        ProfileBuilder::Limits limits;
        limits.maxChildrenPerField = 100;
        ProfileBuilder builder(limits);
        for (int i = 0; i < 100; ++i) {
            QStringList keys;
            for (int k = 0; k < 1000; ++k)
                keys << QStringLiteral(R"("%1": 1)").arg(i * 1000 + k);
            const QByteArray doc = fixtures::bson(QStringLiteral(R"({"_id": %1, "m": {%2}})")
                                                      .arg(i)
                                                      .arg(keys.join(QLatin1Char(',')))
                                                      .toUtf8()
                                                      .constData());
            QVERIFY(builder.addDocument(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                        std::uint32_t(doc.size()), std::uint64_t(i), nullptr));
        }
        CollectionProfile profile = builder.takeProfile();
        QVERIFY(profile.fields.size() <= 100 + 3); // _id, m, 100 keys, "*"
        QCOMPARE(profile.field("m")->shape.keysPastCap, std::uint64_t(100 * 1000 - 100));
        DataKeyFolder::fold(profile);
        QCOMPARE(profile.fields.size(), std::size_t(3)); // _id, m, m.<key>
        const ShapeReport report = ShapeDetector::detect(profile, {}, {});
        const ShapeFlag *f = find(report, Kind::KeysAsData, "m");
        QVERIFY2(f, qPrintable(flagsText(report)));
        QVERIFY(f->detail.contains(QStringLiteral("99900 more keys past the cap")));
    }

    // Two threads, one thread: the same flags, the same example documents.
    void threadsDoNotChangeTheFlags()
    {
        const auto docs = documents([](int i) {
            QString extra = QStringLiteral(R"("codes": [1, %1])")
                                .arg(i % 97 == 0 ? QStringLiteral("\"x\"") : QStringLiteral("2"));
            if (i % 151 == 0)
                extra += QStringLiteral(R"(, "rare": %1)").arg(i);
            return extra;
        });
        const QString one = flagsText(analyse(docs, {}, 1).shape);
        const QString two = flagsText(analyse(docs, {}, 2).shape);
        QVERIFY(one.contains(QStringLiteral("mixed_element_types codes string")));
        QVERIFY(one.contains(QStringLiteral("rare_field rare")));
        QCOMPARE(two, one);
    }
};

QTEST_GUILESS_MAIN(TestShapeDetector)
#include "tst_shapedetector.moc"
