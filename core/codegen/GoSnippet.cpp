#include "codegen/GoSnippet.h"

#include "codegen/CodeIdentifier.h"
#include "codegen/CodeTemplate.h"

namespace oe {

namespace {

constexpr const char *kTemplate =
    R"go(// Outlier pattern, as Outlier Explorer split it: the first {{keep}} elements of the array
// {{field}} of the collection {{collection}} stay in the document; the rest live in
// the collection {{overflow}}, in pages of {{pageSize}} linked by {{link}} and
// numbered by {{page}}; {{flag}} marks a split document.
// Go with the official driver: go get go.mongodb.org/mongo-driver/v2
package {{package}}

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

const (
	Keep{{Name}}     int64 = {{keep}}
	PageSize{{Name}} int64 = {{pageSize}}
)

// CreateOverflowIndex{{Name}}, once: the index the split created. Pages of one document in
// order; unique, so two writers can never open the same page twice.
func CreateOverflowIndex{{Name}}(ctx context.Context, db *mongo.Database) error {
	_, err := db.Collection({{overflow}}).Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys:    bson.D{{Key: {{link}}, Value: 1}, {Key: {{page}}, Value: 1}},
		Options: options.Index().SetUnique(true),
	})
	return err
}

// Append{{Name}} is the write path: it appends item to the document's array, wherever it
// belongs, in at most two round trips. The first, one atomic update of the document, pushes
// item into it while it has room (no flag, and not exactly Keep{{Name}} elements: one holding
// more is an outlier the split has not reached yet, and grows in place until it does), or else
// reserves the next overflow slot: it counts item in the count field (the total length) and
// sets the flag{{andPages}}. The second pushes item to the page its slot falls in, opening
// that page if it is the first. The server hands out each slot once, so concurrent writers
// never collide. Needs MongoDB 4.2+ (an update pipeline); item goes in through $literal, never
// evaluated. mongo.ErrNoDocuments when there is no such document.
func Append{{Name}}(ctx context.Context, db *mongo.Database, id, item any) error {
	size := bson.D{{Key: "$size", Value: bson.D{{Key: "$ifNull", Value: bson.A{{{fieldRef}}, bson.A{}}}}}}
	room := bson.D{{Key: "$and", Value: bson.A{
		bson.D{{Key: "$ne", Value: bson.A{{{flagRef}}, true}}},
		bson.D{{Key: "$ne", Value: bson.A{size, Keep{{Name}}}}},
	}}}
	pipeline := mongo.Pipeline{
		bson.D{{Key: "$set", Value: bson.D{{Key: {{count}}, Value: bson.D{{Key: "$add", Value: bson.A{
			bson.D{{Key: "$ifNull", Value: bson.A{{{countRef}}, size}}}, 1}}}}}}},
		bson.D{{Key: "$set", Value: bson.D{
			{Key: {{field}}, Value: bson.D{{Key: "$cond", Value: bson.A{room,
				bson.D{{Key: "$concatArrays", Value: bson.A{
					bson.D{{Key: "$ifNull", Value: bson.A{{{fieldRef}}, bson.A{}}}},
					bson.A{bson.D{{Key: "$literal", Value: item}}}}}},
				{{fieldRef}}}}}},
			{Key: {{flag}}, Value: bson.D{{Key: "$cond", Value: bson.A{room, {{flagRef}}, true}}}},{{pagesSet}}
		}}},
	}
	var doc bson.Raw
	err := db.Collection({{collection}}).FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: id}}, pipeline,
		options.FindOneAndUpdate().SetReturnDocument(options.After).
			SetProjection(bson.D{{Key: {{count}}, Value: 1}, {Key: {{flag}}, Value: 1}})).Decode(&doc)
	if err != nil {
		return err
	}
	if flag, _ := doc.Lookup({{flag}}).BooleanOK(); !flag {
		return nil // it went into the document
	}
	count, ok := doc.Lookup({{count}}).AsInt64OK()
	if !ok {
		return errors.New("Append{{Name}}: the count is not a number")
	}
	slot := count - Keep{{Name}} - 1 // its position among the overflow elements
	for attempt := 0; ; attempt++ {
		_, err = db.Collection({{overflow}}).UpdateOne(ctx,
			bson.D{{Key: {{link}}, Value: id}, {Key: {{page}}, Value: slot / PageSize{{Name}}}},
			bson.D{{Key: "$push", Value: bson.D{{Key: {{items}}, Value: item}}}},
			options.UpdateOne().SetUpsert(true))
		// Two writers opening one page: the loser finds it there on the next try.
		if !mongo.IsDuplicateKeyError(err) || attempt == 2 {
			return err
		}
	}
}

// Read{{Name}} is the read path: count elements (all when count < 0) from position start (0
// is the first), in order. The first Keep{{Name}} come from the document; deeper ones from
// the pages that hold them.
func Read{{Name}}(ctx context.Context, db *mongo.Database, id any, start, count int) ([]bson.RawValue, error) {
	var doc bson.Raw
	err := db.Collection({{collection}}).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc)
	if err != nil {
		return nil, err
	}
	var head []bson.RawValue
	if array, ok := doc.Lookup({{path}}).ArrayOK(); ok {
		if head, err = array.Values(); err != nil {
			return nil, err
		}
	}
	out := []bson.RawValue{}
	if start < len(head) {
		end := len(head)
		if count >= 0 && start+count < end {
			end = start + count
		}
		out = append(out, head[start:end]...)
	}
	if flag, _ := doc.Lookup({{flag}}).BooleanOK(); !flag || len(out) == count {
		return out, nil
	}
	first := int64(max(start-len(head), 0)) / PageSize{{Name}}
	pageRange := bson.D{{Key: "$gte", Value: first}}
	if count >= 0 {
		pageRange = append(pageRange, bson.E{Key: "$lte", Value: int64(start+count-1-len(head)) / PageSize{{Name}}})
	}
	cursor, err := db.Collection({{overflow}}).Find(ctx,
		bson.D{{Key: {{link}}, Value: id}, {Key: {{page}}, Value: pageRange}},
		options.Find().SetSort(bson.D{{Key: {{page}}, Value: 1}}))
	if err != nil {
		return nil, err
	}
	defer cursor.Close(ctx)
	at := int64(len(head)) + first*PageSize{{Name}} // the position of the page's first element
	for cursor.Next(ctx) {
		array, _ := cursor.Current.Lookup({{items}}).ArrayOK()
		items, err := array.Values()
		if err != nil {
			return nil, err
		}
		for _, item := range items {
			if at >= int64(start) && (count < 0 || len(out) < count) {
				out = append(out, item)
			}
			at++
		}
	}
	return out, cursor.Err()
}

// ReadAll{{Name}} returns every element, in order.
func ReadAll{{Name}}(ctx context.Context, db *mongo.Database, id any) ([]bson.RawValue, error) {
	return Read{{Name}}(ctx, db, id, 0, -1)
}
)go";

} // namespace

QString GoSnippet::generate(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    QHash<QString, QString> names = CodeTemplate::names(c, CodeLanguage::Go);
    const auto d = [](const char *op, const QString &value) {
        return QStringLiteral("bson.D{{Key: \"%1\", Value: %2}}").arg(QLatin1String(op), value);
    };
    const auto a = [](const QStringList &items) {
        return QStringLiteral("bson.A{%1}").arg(items.join(QStringLiteral(", ")));
    };
    const QString name = names.value(QStringLiteral("Name"));
    const QString pagesRef = names.value(QStringLiteral("pagesRef"));
    const QString lastPage =
        d("$toLong",
          d("$add", a({QStringLiteral("1"),
                       d("$floor", d("$divide",
                                     a({d("$subtract", a({names.value(QStringLiteral("countRef")),
                                                          QStringLiteral("Keep%1 + 1").arg(name)})),
                                        QStringLiteral("PageSize%1").arg(name)})))})));
    names.insert(
        QStringLiteral("pagesSet"),
        c.pagesField.isEmpty()
            ? QString()
            : QStringLiteral("\n\t\t\t{Key: %1, Value: %2},")
                  .arg(names.value(QStringLiteral("pages")),
                       d("$cond", a({QStringLiteral("room"), pagesRef,
                                     d("$max", a({d("$ifNull", a({pagesRef, QStringLiteral("0")})),
                                                  lastPage}))}))));
    names.insert(
        QStringLiteral("package"),
        CodeIdentifier::derive(c.collection, CodeIdentifier::Style::Lower, CodeLanguage::Go));
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
