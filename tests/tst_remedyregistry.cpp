// The remedy registry (issue 55): every kind has one remedy, each named once for the journal and
// the CLI; the flags suggest the same rewrites as before the registry (keys used as data, a
// mixed type, a big value, a sparse family), and a rare top-level field a rename the user names;
// the rename's rewrite of one document (the value's bytes kept, a document holding the new name
// refused) and its rollback's document (the old name back in its place, the application's
// values kept).
#include "analysis/FieldProfile.h"
#include "bson/internal/BsonRaw.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/RewriteConfig.h"
#include "remedy/ValueRewriter.h"
#include "remedy/internal/FieldsDocument.h"
#include "shape/ShapeFlag.h"

#include <QSet>
#include <QtTest>

using namespace oe;

namespace {

// A document's bytes from relaxed JSON (its key order kept).
QByteArray docOf(const char *json)
{
    bson_t doc;
    bson_error_t error;
    if (!bson_init_from_json(&doc, json, -1, &error))
        return {};
    const QByteArray bytes(reinterpret_cast<const char *>(bson_get_data(&doc)), qsizetype(doc.len));
    bson_destroy(&doc);
    return bytes;
}

QString jsonOf(const QByteArray &bytes)
{
    bson_t doc;
    if (!bsonraw::view(bytes, &doc))
        return {};
    char *text = bson_as_relaxed_extended_json(&doc, nullptr);
    const QString json = QString::fromUtf8(text);
    bson_free(text);
    return json;
}

RewriteConfig renameOf(const QString &from, const QString &to)
{
    RewriteConfig config;
    config.collection = QStringLiteral("users");
    config.kind = RewriteKind::Rename;
    config.path = from;
    config.newName = to;
    return config;
}

} // namespace

class TestRemedyRegistry : public QObject
{
    Q_OBJECT

private slots:
    void everyKindHasOneRemedy()
    {
        const auto &all = RemedyRegistry::all();
        QCOMPARE(int(all.size()), int(RewriteKind::Rename) + 1);
        QSet<QString> names, options;
        for (int k = 0; k <= int(RewriteKind::Rename); ++k) {
            const Remedy &remedy = RemedyRegistry::of(RewriteKind(k));
            QCOMPARE(int(remedy.kind()), k);
            QCOMPARE(all[std::size_t(k)], &remedy); // the dialog lists them in the kinds' order
            names.insert(remedy.name());
            options.insert(remedy.cliOption());
            QCOMPARE(RemedyRegistry::named(remedy.name()), &remedy);
            QCOMPARE(RemedyRegistry::byCliOption(remedy.cliOption()), &remedy);
            QCOMPARE(rewriteKindName(RewriteKind(k)), remedy.name());
            QVERIFY(!remedy.label().isEmpty() && !remedy.cliHelp().isEmpty());
        }
        QCOMPARE(names.size(), int(all.size()));
        QCOMPARE(options.size(), int(all.size()));
        // The journal's words of today's runs stay what they were (the run ids of old journals).
        QCOMPARE(QStringList({rewriteKindName(RewriteKind::KeysToArray),
                              rewriteKindName(RewriteKind::ConvertType),
                              rewriteKindName(RewriteKind::Extract),
                              rewriteKindName(RewriteKind::GridFs),
                              rewriteKindName(RewriteKind::Attributes)}),
                 QStringList({QStringLiteral("keys_to_array"), QStringLiteral("convert"),
                              QStringLiteral("extract"), QStringLiteral("gridfs"),
                              QStringLiteral("attributes")}));
        QCOMPARE(RemedyRegistry::named(QStringLiteral("no such")), nullptr);
    }

    void flagsSuggestTheirRemedies()
    {
        FieldProfile field;
        ShapeFlag flag;
        flag.path = "daily";
        flag.kind = ShapeFlag::Kind::KeysAsData;
        auto c = RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c"));
        QVERIFY(c && c->kind == RewriteKind::KeysToArray && c->path == QLatin1String("daily"));
        flag.kind = ShapeFlag::Kind::BigScalar;
        c = RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c"), 4096);
        QVERIFY(c && c->kind == RewriteKind::Extract && c->minBytes == 4096);
        QCOMPARE(RemedyRegistry::curing(ShapeFlag::Kind::BigScalar).size(), std::size_t(2));
        field.insideArray = true; // a path through an array: no rewrite names one value
        QVERIFY(!RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c"), 4096));
        field.insideArray = false;

        // A rare field: a rename, only where the dialog asks for the new name.
        flag.kind = ShapeFlag::Kind::RareField;
        flag.path = "username";
        QVERIFY(!RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c")));
        c = RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c"), 0,
                                        RewriteConfig::Suggestion::ToComplete);
        QVERIFY(c && c->kind == RewriteKind::Rename && c->path == QLatin1String("username") &&
                c->newName.isEmpty());
        flag.path = "profile.username"; // not top level: no rename
        QVERIFY(!RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c"), 0,
                                             RewriteConfig::Suggestion::ToComplete));
        flag.kind = ShapeFlag::Kind::BigScalar; // a side collection no server takes ("c_a$b_full")
        flag.path = "a$b";
        QVERIFY(!RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c"), 0,
                                             RewriteConfig::Suggestion::ToComplete));
        flag.kind = ShapeFlag::Kind::RareField;
        flag.path = "$bad"; // a path no rewrite names
        QVERIFY(!RewriteConfig::forShapeFlag(flag, field, QStringLiteral("c"), 0,
                                             RewriteConfig::Suggestion::ToComplete));

        ShapeFlag family;
        family.kind = ShapeFlag::Kind::SparseFields;
        family.members = {"voltage", "attrs", "a.b", "isbn"};
        c = RewriteConfig::forSparseFamily(family, QStringLiteral("c"));
        QVERIFY(c && c->kind == RewriteKind::Attributes);
        QCOMPARE(c->fields, (QStringList{QStringLiteral("voltage"), QStringLiteral("attrs"),
                                         QStringLiteral("isbn")}));
        QCOMPARE(c->path, QStringLiteral("attributes")); // a member holds "attrs"
        QVERIFY(!RewriteConfig::forShapeFlag(family, field, QStringLiteral("c")));
    }

    void renameKeepsTheValue()
    {
        const RewriteConfig config = renameOf(QStringLiteral("username"), QStringLiteral("name"));
        QVERIFY2(config.problem().isEmpty(), qPrintable(config.problem()));
        const QByteArray doc = docOf(R"({"_id": 1, "username": {"$numberLong": "7"}, "age": 3})");
        const RewriteResult r = ValueRewriter::rewrite(config, FieldsDocument::rawOfDocument(doc));
        QCOMPARE(int(r.outcome), int(RewriteResult::Outcome::Changed));
        // {name: 7 as a long}: the value's bytes, under the new name.
        const QByteArray after = FieldsDocument::documentOfRaw(r.after);
        QCOMPARE(jsonOf(after), QStringLiteral("{ \"name\" : 7 }"));
        bson_t a;
        bson_iter_t it;
        QVERIFY(bsonraw::view(after, &a) && bson_iter_init_find(&it, &a, "name") &&
                BSON_ITER_HOLDS_INT64(&it));

        const RewriteResult taken = ValueRewriter::rewrite(
            config,
            FieldsDocument::rawOfDocument(docOf(R"({"_id": 2, "username": 1, "name": 2})")));
        QCOMPARE(int(taken.outcome), int(RewriteResult::Outcome::Cannot));
        QCOMPARE(taken.why, QStringLiteral("the document holds a field name already"));
        const RewriteResult none =
            ValueRewriter::rewrite(config, FieldsDocument::rawOfDocument(docOf(R"({"_id": 3})")));
        QCOMPARE(int(none.outcome), int(RewriteResult::Outcome::Unchanged));

        QCOMPARE(renameOf(QStringLiteral("a.b"), QStringLiteral("c")).problem(),
                 QStringLiteral("field path 'a.b': a rename names a top-level field"));
        QVERIFY(renameOf(QStringLiteral("a"), QStringLiteral(""))
                    .problem()
                    .startsWith(QStringLiteral("the new name '': it must be a plain name")));
        QCOMPARE(renameOf(QStringLiteral("a"), QStringLiteral("a")).problem(),
                 QStringLiteral("the new name 'a' is _id or the field's own"));
    }

    // The rollback's document: the old name back in its place with its old value, every other
    // field as the application left it, a field it added last, the new name gone.
    void renameRestoresTheOrder()
    {
        const QByteArray original = docOf(R"({"_id": 1, "username": "ann", "age": 3})");
        const QByteArray current = docOf(R"({"_id": 1, "age": 4, "name": "ann", "promo": true})");
        const QByteArray restored = FieldsDocument::restored(
            {QStringLiteral("username")}, {QStringLiteral("name")},
            FieldsDocument::rawOfDocument(original), FieldsDocument::rawOfDocument(current));
        QCOMPARE(jsonOf(restored), QStringLiteral("{ \"_id\" : 1, \"username\" : \"ann\", "
                                                  "\"age\" : 4, \"promo\" : true }"));
        QCOMPARE(FieldsDocument::restored({QStringLiteral("username")}, {QStringLiteral("name")},
                                          FieldsDocument::rawOfDocument(original),
                                          FieldsDocument::rawOfDocument(
                                              docOf(R"({"_id": 1, "age": 3, "name": "ann"})"))),
                 original); // nobody wrote since: byte for byte
    }
};

QTEST_GUILESS_MAIN(TestRemedyRegistry)
#include "tst_remedyregistry.moc"
