// The attribute rewrite's view of a document (AttributeDocument) and the remedy a sparse family
// suggests (RewriteConfig::forSparseFamily): the chosen fields become [{k, v}] in the
// document's order with each value's bytes kept; a document holding the array's name is
// refused, one holding none is left alone; the rollback's document puts each field back where
// it stood, byte for byte when nobody wrote since, keeping the application's values, removals
// and additions otherwise; members no plain name can address are left out of the remedy.
#include "bson/internal/BsonRaw.h"
#include "remedy/RewriteConfig.h"
#include "remedy/ValueRewriter.h"
#include "remedy/attributes/AttributeDocument.h"
#include "shape/ShapeFlag.h"

#include <QtTest>

using oe::AttributeDocument;

namespace {

// A document's bytes from extended JSON.
QByteArray docOf(const QString &json)
{
    const QByteArray text = json.toUtf8();
    bson_t doc;
    bson_error_t error;
    if (!bson_init_from_json(&doc, text.constData(), text.size(), &error))
        return {};
    QByteArray bytes(reinterpret_cast<const char *>(bson_get_data(&doc)), qsizetype(doc.len));
    bson_destroy(&doc);
    return bytes;
}

QByteArray rawDoc(const QString &json)
{
    return AttributeDocument::rawOfDocument(docOf(json));
}

QString jsonOf(const QByteArray &bytes)
{
    bson_t doc;
    if (!oe::bsonraw::view(bytes, &doc))
        return QStringLiteral("(not a document)");
    char *text = bson_as_relaxed_extended_json(&doc, nullptr);
    const QString json = QString::fromUtf8(text);
    bson_free(text);
    return json;
}

oe::RewriteConfig attributes(const QStringList &fields)
{
    oe::RewriteConfig config;
    config.collection = QStringLiteral("products");
    config.kind = oe::RewriteKind::Attributes;
    config.path = QStringLiteral("attrs");
    config.fields = fields;
    return config;
}

oe::ShapeFlag family(const std::vector<std::string> &members)
{
    oe::ShapeFlag flag =
        oe::ShapeFlag::of(oe::ShapeFlag::Kind::SparseFields, {}, members.size(), members.size());
    flag.members = members;
    return flag;
}

} // namespace

class TestAttributeDocument : public QObject
{
    Q_OBJECT
private slots:
    void rewriteKeepsTheDocumentsOrder()
    {
        const oe::RewriteConfig config =
            attributes({QStringLiteral("voltage"), QStringLiteral("isbn"), QStringLiteral("ключ")});
        const QByteArray doc =
            rawDoc(QStringLiteral("{\"_id\": 1, \"isbn\": \"978\", \"name\": \"n\", \"ключ\": "
                                  "{\"$numberLong\": \"7\"}, \"voltage\": [1, 2]}"));
        const oe::RewriteResult r = oe::ValueRewriter::rewrite(config, doc);
        QCOMPARE(int(r.outcome), int(oe::RewriteResult::Outcome::Changed));
        QCOMPARE(jsonOf(AttributeDocument::documentOfRaw(r.after)),
                 QStringLiteral("{ \"attrs\" : [ { \"k\" : \"isbn\", \"v\" : \"978\" }, { \"k\" : "
                                "\"ключ\", \"v\" : 7 }, { \"k\" : \"voltage\", \"v\" : [ 1, 2 ] } "
                                "] }"));
        // The long stays a long.
        QVERIFY(r.after.contains(QByteArray("\x12v\0\x07\0\0\0\0\0\0\0", 12)));
        QCOMPARE(jsonOf(AttributeDocument::documentOfRaw(AttributeDocument::touched(config, doc))),
                 QStringLiteral("{ \"isbn\" : \"978\", \"ключ\" : 7, \"voltage\" : [ 1, 2 ] }"));

        const oe::RewriteResult taken = oe::ValueRewriter::rewrite(
            config, rawDoc(QStringLiteral("{\"_id\": 2, \"isbn\": \"1\", \"attrs\": []}")));
        QCOMPARE(int(taken.outcome), int(oe::RewriteResult::Outcome::Cannot));
        QCOMPARE(taken.why, QStringLiteral("the document holds a field attrs already"));
        const oe::RewriteResult none = oe::ValueRewriter::rewrite(
            config, rawDoc(QStringLiteral("{\"_id\": 3, \"name\": \"x\"}")));
        QCOMPARE(int(none.outcome), int(oe::RewriteResult::Outcome::Unchanged));
        QCOMPARE(int(oe::ValueRewriter::rewrite(config, QByteArray("\x10\x01\0\0\0", 5)).outcome),
                 int(oe::RewriteResult::Outcome::Cannot));
    }

    // The rollback's document: the original's order, the chosen fields' original values, the
    // rest as the application left them.
    void restoredPutsEachFieldWhereItStood()
    {
        const oe::RewriteConfig config =
            attributes({QStringLiteral("voltage"), QStringLiteral("isbn")});
        const QByteArray original =
            rawDoc(QStringLiteral("{\"_id\": 1, \"name\": \"n\", \"voltage\": 12, \"price\": "
                                  "2.5, \"isbn\": \"978\", \"tail\": true}"));
        const oe::RewriteResult r = oe::ValueRewriter::rewrite(config, original);
        QCOMPARE(int(r.outcome), int(oe::RewriteResult::Outcome::Changed));
        const QString array = QStringLiteral("[{\"k\": \"voltage\", \"v\": 12}, {\"k\": \"isbn\", "
                                             "\"v\": \"978\"}]");
        const QByteArray untouched =
            rawDoc(QStringLiteral("{\"_id\": 1, \"name\": \"n\", \"price\": 2.5, \"tail\": true, "
                                  "\"attrs\": %1}")
                       .arg(array));
        QCOMPARE(AttributeDocument::touched(config, untouched), r.after);
        QCOMPARE(AttributeDocument::restored(config, original, untouched),
                 AttributeDocument::documentOfRaw(original));
        // The application changed the price, removed the name and added a field since.
        const QByteArray edited = rawDoc(
            QStringLiteral("{\"_id\": 1, \"price\": 3, \"tail\": true, \"attrs\": %1, \"promo\": "
                           "\"x\"}")
                .arg(array));
        QCOMPARE(jsonOf(AttributeDocument::restored(config, original, edited)),
                 QStringLiteral("{ \"_id\" : 1, \"voltage\" : 12, \"price\" : 3, \"isbn\" : "
                                "\"978\", \"tail\" : true, \"promo\" : \"x\" }"));
        QVERIFY(
            AttributeDocument::restored(config, original, QByteArray("\x10\0\0\0\0", 5)).isEmpty());
    }

    // The remedy a sparse family suggests: its nameable members, into an array no member
    // names.
    void forSparseFamily()
    {
        auto config = oe::RewriteConfig::forSparseFamily(
            family({"voltage", "a.b", "$x", "_id", "attrs", "isbn"}), QStringLiteral("products"));
        QVERIFY(config);
        QCOMPARE(config->kind, oe::RewriteKind::Attributes);
        QCOMPARE(config->fields, (QStringList{QStringLiteral("voltage"), QStringLiteral("attrs"),
                                              QStringLiteral("isbn")}));
        QCOMPARE(config->path, QStringLiteral("attributes"));
        QCOMPARE(config->runId(), QStringLiteral("attributes:attributes"));
        QCOMPARE(config->describe(), QStringLiteral("3 sparse fields to attributes: [{k, v}]"));
        QCOMPARE(config->indexSuggestion(),
                 QStringLiteral("{\"attributes.k\": 1, \"attributes.v\": 1}"));
        config = oe::RewriteConfig::forSparseFamily(family({"attrs", "attributes", "x"}),
                                                    QStringLiteral("products"));
        QVERIFY(config);
        QCOMPARE(config->path, QStringLiteral("attrs_2"));
        QVERIFY(
            !oe::RewriteConfig::forSparseFamily(family({"a.b", "$x"}), QStringLiteral("products")));
        oe::ShapeFlag rare = family({"voltage"});
        rare.kind = oe::ShapeFlag::Kind::RareField;
        QVERIFY(!oe::RewriteConfig::forSparseFamily(rare, QStringLiteral("products")));
    }

    void problems()
    {
        QCOMPARE(attributes({}).problem(),
                 QStringLiteral("the attribute rewrite needs the fields it moves (--fields)"));
        QCOMPARE(attributes({QStringLiteral("attrs")}).problem(),
                 QStringLiteral("field 'attrs': _id and the array 'attrs' cannot be moved into "
                                "it"));
        oe::RewriteConfig same = attributes({QStringLiteral("a")});
        same.valueName = QStringLiteral("k");
        QCOMPARE(same.problem(), QStringLiteral("the key and value fields are both named 'k'"));
        QCOMPARE(attributes({QStringLiteral("a")}).problem(), QString());
    }
};

QTEST_GUILESS_MAIN(TestAttributeDocument)
#include "tst_attributedocument.moc"
