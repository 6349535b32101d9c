#include "GoSnippet.h"

#include "CodeIdentifier.h"
#include "CodeTemplate.h"

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
// belongs. One round trip while the document has room; past that, to its last page, opening
// the next when full.
func Append{{Name}}(ctx context.Context, db *mongo.Database, id, item any) error {
	docs, pages := db.Collection({{collection}}), db.Collection({{overflow}})
	if Keep{{Name}} > 0 {
		r, err := docs.UpdateOne(ctx,
			bson.D{{Key: "_id", Value: id}, {Key: {{flag}}, Value: bson.D{{Key: "$ne", Value: true}}},
				{Key: {{fieldKeepLast}}, Value: bson.D{{Key: "$exists", Value: false}}}},
			bson.D{{Key: "$push", Value: bson.D{{Key: {{field}}, Value: item}}}})
		if err != nil || r.MatchedCount == 1 {
			return err
		}
	}
	for {
		var last bson.Raw
		err := pages.FindOne(ctx, bson.D{{Key: {{link}}, Value: id}},
			options.FindOne().SetSort(bson.D{{Key: {{page}}, Value: -1}}).
				SetProjection(bson.D{{Key: {{page}}, Value: 1}})).Decode(&last)
		if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
			return err
		}
		var page int64 // 0 when there is no page yet
		if err == nil {
			page, _ = last.Lookup({{page}}).AsInt64OK()
		}
		r, err := push{{Name}}Page(ctx, pages, id, page, item, err != nil)
		if err == nil && r.MatchedCount == 0 && r.UpsertedCount == 0 {
			page++ // the last page is full: open the next one
			r, err = push{{Name}}Page(ctx, pages, id, page, item, true)
		}
		if mongo.IsDuplicateKeyError(err) {
			continue // another writer opened that page first: go again
		}
		if err != nil {
			return err
		}
{{opened}}		_, err = docs.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{ {{setCounters}} })
		return err
	}
}

// push{{Name}}Page appends item to one page, only while it holds fewer than PageSize{{Name}}
// elements (the filter fails once it is full).
func push{{Name}}Page(ctx context.Context, pages *mongo.Collection, id any, page int64, item any,
	upsert bool) (*mongo.UpdateResult, error) {
	return pages.UpdateOne(ctx,
		bson.D{{Key: {{link}}, Value: id}, {Key: {{page}}, Value: page},
			{Key: {{itemsPageLast}}, Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "$push", Value: bson.D{{Key: {{items}}, Value: item}}}},
		options.UpdateOne().SetUpsert(upsert))
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
    QStringList counters{QStringLiteral("{Key: \"$set\", Value: bson.D{{Key: %1, Value: true}}}")
                             .arg(names.value(QStringLiteral("flag")))};
    if (!c.countField.isEmpty())
        counters << QStringLiteral("{Key: \"$inc\", Value: bson.D{{Key: %1, Value: added}}}")
                        .arg(names.value(QStringLiteral("count")));
    if (!c.pagesField.isEmpty())
        counters << QStringLiteral("{Key: \"$max\", Value: bson.D{{Key: %1, Value: page + 1}}}")
                        .arg(names.value(QStringLiteral("pages")));
    names.insert(QStringLiteral("setCounters"), counters.join(QStringLiteral(", ")));
    names.insert(QStringLiteral("opened"),
                 c.countField.isEmpty()
                     ? QString()
                     : QStringLiteral("\t\t// Whoever opened page 0 also counts the Keep elements "
                                      "in the document.\n"
                                      "\t\tadded := int64(1)\n"
                                      "\t\tif r.UpsertedCount == 1 && page == 0 {\n"
                                      "\t\t\tadded += Keep%1\n"
                                      "\t\t}\n")
                           .arg(names.value(QStringLiteral("Name"))));
    names.insert(
        QStringLiteral("package"),
        CodeIdentifier::derive(c.collection, CodeIdentifier::Style::Lower, CodeLanguage::Go));
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
