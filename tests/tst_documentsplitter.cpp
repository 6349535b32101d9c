#include "BsonFixtures.h"
#include "bson/DocumentId.h"
#include "split/DocumentSplitter.h"

#include <QTest>

#include <bson/bson.h>

using namespace oe;

static QStringList utf8List(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *i : items)
        out << QString::fromUtf8(i);
    return out;
}

// The split of one document, and its inverse, as pure BSON.
class TestDocumentSplitter : public QObject
{
    Q_OBJECT

    static SplitConfig config(const QString &field, int keep, int pageSize)
    {
        SplitConfig c;
        c.collection = QStringLiteral("things");
        c.field = field;
        c.keep = keep;
        c.pageSize = pageSize;
        return c.withDefaults();
    }
    static DocumentSplitter::Result splitJson(const char *json, const SplitConfig &c)
    {
        const QByteArray doc = fixtures::bson(json);
        return DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                       std::uint32_t(doc.size()), c);
    }
    static QString json(const QByteArray &doc)
    {
        return DocumentId::documentToRelaxedJson(
            reinterpret_cast<const std::uint8_t *>(doc.constData()), std::size_t(doc.size()));
    }
    static QStringList jsonPages(const DocumentSplitter::Result &r)
    {
        QStringList out;
        for (const auto &p : r.pages)
            out << json(p);
        return out;
    }

private slots:
    void splitsIntoPrimaryAndPages_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("keep");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<QString>("primary");
        QTest::addColumn<QStringList>("pages");
        QTest::newRow("keep 3 of 8, pages of 2")
            << R"({"_id": 7, "a": [0, 1, 2, 3, 4, 5, 6, 7], "z": "end"})"
            << "a" << 3 << 2 << R"({"_id":7,"a":[0,1,2],"z":"end","has_extras":true,"a_count":8})"
            << utf8List({R"({"parent_id":7,"page":0,"a":[3,4]})",
                         R"({"parent_id":7,"page":1,"a":[5,6]})",
                         R"({"parent_id":7,"page":2,"a":[7]})"});
        QTest::newRow("keep 0 moves everything")
            << R"({"_id": "p", "comments": [{"t": "x"}, {"t": "y"}]})"
            << "comments" << 0 << 10
            << R"({"_id":"p","comments":[],"has_extras":true,"comments_count":2})"
            << utf8List({R"({"parent_id":"p","page":0,"comments":[{"t":"x"},{"t":"y"}]})"});
        QTest::newRow("inside a sub-document")
            << R"({"_id": 1, "stats": {"n": 1, "history": [1, 2, 3], "m": 2}})"
            << "stats.history" << 1 << 5
            << R"({"_id":1,"stats":{"n":1,"history":[1],"m":2},"has_extras":true,"stats_history_count":3})"
            << utf8List({R"({"parent_id":1,"page":0,"history":[2,3]})"});
    }
    void splitsIntoPrimaryAndPages()
    {
        QFETCH(QString, input);
        QFETCH(QString, field);
        QFETCH(int, keep);
        QFETCH(int, pageSize);
        QFETCH(QString, primary);
        QFETCH(QStringList, pages);
        const auto r = splitJson(input.toUtf8().constData(), config(field, keep, pageSize));
        QCOMPARE(r.kind, DocumentSplitter::Result::Kind::Split);
        QCOMPARE(json(r.primary), primary);
        QCOMPARE(jsonPages(r), pages);
        QCOMPARE(r.pages.size(),
                 std::size_t(DocumentSplitter::pageCount(r.length, config(field, keep, pageSize))));
    }

    void countAndPagesFieldsReplaceInPlaceOrAppend()
    {
        SplitConfig c = config(QStringLiteral("activities"), 2, 2);
        c.countField = QStringLiteral("activityCount");
        c.pagesField = QStringLiteral("overflowPages");
        const auto r = splitJson(
            R"({"_id": 1, "activityCount": 5, "activities": [1, 2, 3, 4, 5], "name": "x"})", c);
        QCOMPARE(
            json(r.primary),
            QString::fromUtf8(
                R"({"_id":1,"activityCount":5,"activities":[1,2],"name":"x","has_extras":true,"overflowPages":2})"));
        QCOMPARE(r.originalCount.size(), 1 + 4); // int32 5 remembered for rollback
        QVERIFY(r.originalPages.isEmpty());
    }

    void roundTripRestoresTheOriginalExactly_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("keep");
        QTest::addColumn<int>("pageSize");
        QTest::newRow("plain") << R"({"_id": 1, "a": [1, "two", {"three": 3}, [4], null, 6.5]})"
                               << "a" << 2 << 2;
        QTest::newRow("page size 1") << R"({"_id": 1, "a": [1, 2, 3, 4, 5]})"
                                     << "a" << 1 << 1;
        QTest::newRow("keep 0")
            << R"({"_id": {"$oid": "65a1b2c3d4e5f60718293a4b"}, "a": [1, 2, 3]})"
            << "a" << 0 << 100;
        QTest::newRow("flag existed false")
            << R"({"_id": 1, "has_extras": false, "a": [1, 2, 3], "b": 1})"
            << "a" << 1 << 1;
        QTest::newRow("nested") << R"({"_id": 1, "s": {"h": [1, 2, 3, 4], "x": {"y": 1}}, "t": 2})"
                                << "s.h" << 2 << 1;
        QTest::newRow("count existed") << R"({"_id": 1, "activityCount": 99, "a": [1, 2, 3]})"
                                       << "a" << 1 << 1;
    }
    void roundTripRestoresTheOriginalExactly()
    {
        QFETCH(QString, input);
        QFETCH(QString, field);
        QFETCH(int, keep);
        QFETCH(int, pageSize);
        SplitConfig c = config(field, keep, pageSize);
        c.countField = QStringLiteral("activityCount");
        c.pagesField = QStringLiteral("pages");
        const QByteArray original = fixtures::bson(input.toUtf8().constData());
        const auto r =
            DocumentSplitter::split(reinterpret_cast<const std::uint8_t *>(original.constData()),
                                    std::uint32_t(original.size()), c);
        QCOMPARE(r.kind, DocumentSplitter::Result::Kind::Split);
        QByteArray back;
        QString problem;
        QVERIFY2(DocumentSplitter::reassemble(r.primary, r.pages, c, r.originalFlag,
                                              r.originalCount, r.originalPages, &back, &problem),
                 qPrintable(problem));
        QCOMPARE(json(back), json(original));
        QCOMPARE(back, original); // byte for byte
        QByteArray digest;
        std::uint64_t total = 0;
        QVERIFY(DocumentSplitter::concatenatedDigest(r.primary, r.pages, c, r.length, &digest,
                                                     &total, &problem));
        QCOMPARE(total, r.length);
        QCOMPARE(digest, r.digest);
    }

    void digestNoticesAnyChange()
    {
        const SplitConfig c = config(QStringLiteral("a"), 1, 2);
        const auto r = splitJson(R"({"_id": 1, "a": [1, 2, 3, 4]})", c);
        std::vector<QByteArray> swapped = {r.pages[1], r.pages[0]};
        QByteArray digest;
        std::uint64_t total = 0;
        QString problem;
        QVERIFY(DocumentSplitter::concatenatedDigest(r.primary, swapped, c, r.length, &digest,
                                                     &total, &problem));
        QVERIFY(digest != r.digest);
        const auto changed = splitJson(R"({"_id": 1, "a": [1, 2, 3, 5]})", c);
        QVERIFY(changed.digest != r.digest);
        const auto typed = splitJson(R"({"_id": 1, "a": [1, 2, 3, {"$numberLong": "4"}]})", c);
        QVERIFY(typed.digest != r.digest);
    }

    void unaffectedDocuments_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("alreadySplit");
        QTest::newRow("short array") << R"({"_id": 1, "a": [1, 2]})" << false;
        QTest::newRow("no field") << R"({"_id": 1, "b": [1, 2, 3, 4]})" << false;
        QTest::newRow("parent not a document") << R"({"_id": 1, "s": 5})" << false;
        QTest::newRow("already split")
            << R"({"_id": 1, "a": [1, 2, 3, 4], "has_extras": true})" << true;
    }
    void unaffectedDocuments()
    {
        QFETCH(QString, input);
        QFETCH(bool, alreadySplit);
        const auto r = splitJson(input.toUtf8().constData(), config(QStringLiteral("a"), 2, 2));
        QCOMPARE(r.kind, DocumentSplitter::Result::Kind::Unaffected);
        QCOMPARE(r.alreadySplit, alreadySplit);
        QVERIFY(r.primary.isEmpty() && r.pages.empty());
    }

    // Schema drift (the field is there but no splittable array) is skipped: the document stays
    // as it is. A document that cannot be split at all is invalid. Both say why.
    void unsplittableShapesAreNamed_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("mentions");
        const int skipped = int(DocumentSplitter::Result::Kind::Skipped);
        QTest::newRow("not an array") << R"({"_id": 1, "a": "text"})"
                                      << "a" << skipped << "is string, not an array";
        QTest::newRow("inside array") << R"({"_id": 1, "acts": [{"tags": [1, 2, 3]}]})"
                                      << "acts.tags" << skipped << "inside the array 'acts'";
        QTest::newRow("no _id") << R"({"a": [1, 2, 3]})"
                                << "a" << int(DocumentSplitter::Result::Kind::Invalid) << "no _id";
    }
    void unsplittableShapesAreNamed()
    {
        QFETCH(QString, input);
        QFETCH(QString, field);
        QFETCH(int, kind);
        QFETCH(QString, mentions);
        const auto r = splitJson(input.toUtf8().constData(), config(field, 1, 1));
        QCOMPARE(int(r.kind), kind);
        QVERIFY(r.hasField);
        QVERIFY(r.primary.isEmpty() && r.pages.empty());
        QVERIFY2(r.problem.contains(mentions), qPrintable(r.problem));
    }

    // Keys "1", "0": reassembled, the array would be renumbered, so it is not split at all.
    void misnumberedArrayIsNotSplit()
    {
        bson_t doc, array;
        bson_init(&doc);
        BSON_APPEND_INT32(&doc, "_id", 1);
        BSON_APPEND_ARRAY_BEGIN(&doc, "a", &array);
        BSON_APPEND_INT32(&array, "0", 10);
        BSON_APPEND_INT32(&array, "2", 11);
        BSON_APPEND_INT32(&array, "1", 12);
        bson_append_array_end(&doc, &array);
        const auto r = DocumentSplitter::split(bson_get_data(&doc), doc.len,
                                               config(QStringLiteral("a"), 1, 1));
        bson_destroy(&doc);
        QCOMPARE(r.kind, DocumentSplitter::Result::Kind::Invalid);
        QVERIFY2(r.problem.contains(QStringLiteral("element 1 of 'a' has the key '2', not '1'")),
                 qPrintable(r.problem));
        QVERIFY(r.primary.isEmpty() && r.pages.empty());
    }

    void configurationProblems_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("keep");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("count");
        QTest::addColumn<QString>("overflow");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("negative keep") << "a" << -1 << 10 << "has_extras"
                                       << ""
                                       << ""
                                       << "--keep";
        QTest::newRow("page size 0") << "a" << 1 << 0 << "has_extras"
                                     << ""
                                     << ""
                                     << "--page-size";
        QTest::newRow("flag is the field") << "a" << 1 << 10 << "a"
                                           << ""
                                           << ""
                                           << "collides";
        QTest::newRow("flag inside the field's parent") << "s.h" << 1 << 10 << "s"
                                                        << ""
                                                        << ""
                                                        << "collides";
        QTest::newRow("count equals flag") << "a" << 1 << 10 << "x"
                                           << "x"
                                           << ""
                                           << "both 'x'";
        QTest::newRow("overflow is the collection") << "a" << 1 << 10 << "has_extras"
                                                    << ""
                                                    << "things"
                                                    << "itself";
        QTest::newRow("empty segment") << "a..b" << 1 << 10 << "has_extras"
                                       << ""
                                       << ""
                                       << "empty path segment";
        QTest::newRow("dollar") << "$a" << 1 << 10 << "has_extras"
                                << ""
                                << ""
                                << "'$'";
        QTest::newRow("_id") << "_id" << 1 << 10 << "has_extras"
                             << ""
                             << ""
                             << "_id";
    }
    void configurationProblems()
    {
        QFETCH(QString, field);
        QFETCH(int, keep);
        QFETCH(int, pageSize);
        QFETCH(QString, flag);
        QFETCH(QString, count);
        QFETCH(QString, overflow);
        QFETCH(QString, mentions);
        SplitConfig c;
        c.collection = QStringLiteral("things");
        c.field = field;
        c.keep = keep;
        c.pageSize = pageSize;
        c.flagField = flag;
        c.countField = count;
        c.overflowCollection = overflow;
        const QStringList problems = c.problems();
        QVERIFY2(problems.join(QLatin1Char(' ')).contains(mentions),
                 qPrintable(problems.join(QStringLiteral(" | "))));
        QVERIFY(config(QStringLiteral("a"), 1, 10).problems().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDocumentSplitter)
#include "tst_documentsplitter.moc"
