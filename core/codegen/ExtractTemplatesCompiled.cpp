#include "codegen/ExtractTemplates.h"

// The compiled languages' texts (Java, Go, C): ExtractTemplates::text() hands them out.

namespace oe {

namespace {

constexpr const char *kJava =
    R"java(// Subset pattern, as Outlier Explorer extracted it: where a document of the collection
// {{collection}} holds {{flag}}: true, the whole value of {{path}} lives in the
// collection {{side}} (its field {{leaf}}, keyed by the document's _id), and the
// document keeps an excerpt of the same type in its place.
// Java with the official sync driver: org.mongodb:mongodb-driver-sync
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Updates.combine;
import static com.mongodb.client.model.Updates.set;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.result.UpdateResult;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.bson.types.Binary;

public final class {{Name}}Extracted {
    public static final int EXCERPT_CHARS = {{excerptChars}};
    public static final List<String> EXCERPT_KEYS = List.of({{excerptKeys}});
    private static final List<String> PATH = List.of({{pathParts}});

    private {{Name}}Extracted() {
    }

    /** The excerpt a document keeps: a string's first EXCERPT_CHARS characters (code points), a
     * sub-document's EXCERPT_KEYS (in its own order), an empty binary of the same subtype. */
    public static Object excerpt(Object value) {
        if (value instanceof String text) {
            int chars = Math.min(EXCERPT_CHARS, text.codePointCount(0, text.length()));
            return text.substring(0, text.offsetByCodePoints(0, chars));
        }
        if (value instanceof Binary binary) {
            return new Binary(binary.getType(), new byte[0]);
        }
        if (value instanceof byte[]) {
            return new Binary(new byte[0]);
        }
        if (value instanceof Map<?, ?> map) {
            Document out = new Document();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (EXCERPT_KEYS.contains(e.getKey())) {
                    out.put(String.valueOf(e.getKey()), e.getValue());
                }
            }
            return out;
        }
        throw new IllegalArgumentException("a string, a binary or a sub-document is extracted");
    }

    /** Read path: the document whole, as it was before the extraction: where it holds the flag,
     * the value from the side collection back in its place and the flag gone. null if there is
     * no such document. */
    public static Document read(MongoDatabase db, Object id) {
        Document doc = db.getCollection({{collection}}).find(eq("_id", id)).first();
        if (doc == null || !Boolean.TRUE.equals(doc.get({{flag}}))) {
            return doc;
        }
        Document side = db.getCollection({{side}}).find(eq("_id", id)).first();
        if (side == null || !side.containsKey({{leaf}})) {
            throw new IllegalStateException("the side collection lost the whole value of " + id);
        }
        Document holder = doc;
        for (String part : PATH.subList(0, PATH.size() - 1)) {
            holder = holder.get(part, Document.class);
        }
        holder.put(PATH.get(PATH.size() - 1), side.get({{leaf}}));
        doc.remove({{flag}});
        return doc;
    }

    /** Write path: `value` whole into the side collection first, then its excerpt and the flag
     * into the document, so a reader never finds the flag without the whole value. Of writers
     * racing on one document, the last to write the side collection holds the whole value
     * (read returns it); the excerpt may be another's. */
    public static void write(MongoDatabase db, Object id, Object value) {
        Object excerpt = excerpt(value);
        db.getCollection({{side}}).replaceOne(eq("_id", id),
                new Document("_id", id).append({{leaf}}, value), new ReplaceOptions().upsert(true));
        UpdateResult done = db.getCollection({{collection}}).updateOne(eq("_id", id),
                combine(set({{path}}, excerpt), set({{flag}}, true)));
        if (done.getMatchedCount() == 0) {
            db.getCollection({{side}}).deleteOne(eq("_id", id));
            throw new IllegalArgumentException("no such document: " + id);
        }
    }
}
)java";

constexpr const char *kGo =
    R"go(// Subset pattern, as Outlier Explorer extracted it: where a document of the collection
// {{collection}} holds {{flag}}: true, the whole value of {{path}} lives in the
// collection {{side}} (its field {{leaf}}, keyed by the document's _id), and the
// document keeps an excerpt of the same type in its place.
// Go with the official driver: go get go.mongodb.org/mongo-driver/v2
package {{package}}

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// ExcerptChars{{Name}}: the characters of a string the document keeps.
const ExcerptChars{{Name}} = {{excerptChars}}

var (
	excerptKeys{{Name}} = []string{{{excerptKeys}}}
	path{{Name}}        = []string{{{pathParts}}}
)

// Excerpt{{Name}}: the excerpt a document keeps: a string's first ExcerptChars{{Name}}
// characters (runes), a sub-document's chosen keys (in its own order), an empty binary of the
// same subtype.
func Excerpt{{Name}}(value any) (any, error) {
	switch v := value.(type) {
	case string:
		runes := []rune(v)
		if len(runes) > ExcerptChars{{Name}} {
			runes = runes[:ExcerptChars{{Name}}]
		}
		return string(runes), nil
	case bson.Binary:
		return bson.Binary{Subtype: v.Subtype, Data: []byte{}}, nil
	case []byte:
		return bson.Binary{Data: []byte{}}, nil
	case bson.D:
		out := bson.D{}
		for _, e := range v {
			if slices.Contains(excerptKeys{{Name}}, e.Key) {
				out = append(out, e)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("Excerpt{{Name}}: a string, a binary or a sub-document is extracted, not %T", value)
}

// setIn{{Name}} puts value at path in doc (its sub-documents changed in place).
func setIn{{Name}}(doc bson.D, path []string, value any) error {
	for i := range doc {
		if doc[i].Key != path[0] {
			continue
		}
		if len(path) == 1 {
			doc[i].Value = value
			return nil
		}
		inner, ok := doc[i].Value.(bson.D)
		if !ok {
			return errors.New("the path passes through a value that is no sub-document")
		}
		return setIn{{Name}}(inner, path[1:], value)
	}
	return errors.New("the document has nothing at the path")
}

// Read{{Name}}, the read path: the document whole, as it was before the extraction: where it
// holds the flag, the value from the side collection back in its place and the flag gone. nil
// if there is no such document.
func Read{{Name}}(ctx context.Context, db *mongo.Database, id any) (bson.D, error) {
	var doc bson.D
	err := db.Collection({{collection}}).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	flagged := slices.IndexFunc(doc, func(e bson.E) bool { return e.Key == {{flag}} && e.Value == true })
	if flagged < 0 {
		return doc, nil
	}
	var side bson.D
	err = db.Collection({{side}}).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&side)
	if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
		return nil, err
	}
	whole := slices.IndexFunc(side, func(e bson.E) bool { return e.Key == {{leaf}} })
	if whole < 0 {
		return nil, fmt.Errorf("Read{{Name}}: the side collection lost the whole value of %v", id)
	}
	if err := setIn{{Name}}(doc, path{{Name}}, side[whole].Value); err != nil {
		return nil, fmt.Errorf("Read{{Name}}: %w", err)
	}
	return slices.Delete(doc, flagged, flagged+1), nil
}

// Write{{Name}}, the write path: value whole into the side collection first, then its excerpt
// and the flag into the document, so a reader never finds the flag without the whole value.
// Of writers racing on one document, the last to write the side collection holds the whole
// value (Read{{Name}} returns it); the excerpt may be another's.
func Write{{Name}}(ctx context.Context, db *mongo.Database, id any, value any) error {
	excerpt, err := Excerpt{{Name}}(value)
	if err != nil {
		return err
	}
	byID := bson.D{{Key: "_id", Value: id}}
	side := db.Collection({{side}})
	if _, err := side.ReplaceOne(ctx, byID, bson.D{{Key: "_id", Value: id}, {Key: {{leaf}}, Value: value}},
		options.Replace().SetUpsert(true)); err != nil {
		return err
	}
	done, err := db.Collection({{collection}}).UpdateOne(ctx, byID, bson.D{{Key: "$set", Value: bson.D{
		{Key: {{path}}, Value: excerpt}, {Key: {{flag}}, Value: true}}}})
	if err != nil {
		return err
	}
	if done.MatchedCount == 0 {
		if _, err := side.DeleteOne(ctx, byID); err != nil {
			return err
		}
		return errors.New("Write{{Name}}: no such document")
	}
	return nil
}
)go";

constexpr const char *kC =
    R"c(// Subset pattern, as Outlier Explorer extracted it: where a document of the collection
// {{collection}} holds {{flag}}: true, the whole value of {{path}} lives in the
// collection {{side}} (its field {{leaf}}, keyed by the document's _id), and the
// document keeps an excerpt of the same type in its place.
// C with libmongoc: cc app.c $(pkg-config --cflags --libs libmongoc-1.0)
#include <mongoc/mongoc.h>
#include <string.h>

#define EXCERPT_CHARS_{{NAME}} {{excerptChars}}

static const char *const excerpt_keys_{{name_}}[] = {{{excerptKeysC}}};
static const char *const path_{{name_}}[] = {{{pathPartsC}}};

static bool is_excerpt_key_{{name_}} (const char *key)
{
   for (const char *const *k = excerpt_keys_{{name_}}; *k; k++)
      if (!strcmp (*k, key))
         return true;
   return false;
}

/* The excerpt a document keeps, appended to `doc` as `key`: a string's first
 * EXCERPT_CHARS_{{NAME}} characters (code points), a sub-document's chosen keys (in its own
 * order), an empty binary of the same subtype. */
bool append_excerpt_{{name_}} (bson_t *doc, const char *key, const bson_value_t *value,
                               bson_error_t *error)
{
   if (value->value_type == BSON_TYPE_UTF8) {
      const char *text = value->value.v_utf8.str;
      uint32_t length = value->value.v_utf8.len, at = 0;
      for (int n = 0; n < EXCERPT_CHARS_{{NAME}} && at < length; n++)
         for (at++; at < length && ((unsigned char) text[at] & 0xC0) == 0x80; at++)
            ;
      return bson_append_utf8 (doc, key, -1, text, (int) at);
   }
   if (value->value_type == BSON_TYPE_BINARY)
      return bson_append_binary (doc, key, -1, value->value.v_binary.subtype,
                                 (const uint8_t *) "", 0);
   if (value->value_type == BSON_TYPE_DOCUMENT) {
      bson_t source, out;
      bson_iter_t it;
      if (!bson_init_static (&source, value->value.v_doc.data, value->value.v_doc.data_len) ||
          !bson_iter_init (&it, &source) || !bson_append_document_begin (doc, key, -1, &out))
         return false;
      while (bson_iter_next (&it))
         if (is_excerpt_key_{{name_}} (bson_iter_key (&it)))
            bson_append_iter (&out, NULL, -1, &it);
      return bson_append_document_end (doc, &out);
   }
   bson_set_error (error, MONGOC_ERROR_BSON, MONGOC_ERROR_BSON_INVALID,
                   "a string, a binary or a sub-document is extracted");
   return false;
}

/* The document of `collection` with this _id into `out` (initialized: empty if none). */
static bool find_one_{{name_}} (mongoc_database_t *db, const char *collection,
                                const bson_value_t *id, bson_t *out, bool *found,
                                bson_error_t *error)
{
   mongoc_collection_t *c = mongoc_database_get_collection (db, collection);
   bson_t filter = BSON_INITIALIZER;
   BSON_APPEND_VALUE (&filter, "_id", id);
   bson_t *opts = BCON_NEW ("limit", BCON_INT64 (1));
   mongoc_cursor_t *cursor = mongoc_collection_find_with_opts (c, &filter, opts, NULL);
   const bson_t *doc;
   *found = mongoc_cursor_next (cursor, &doc);
   if (*found)
      bson_copy_to (doc, out);
   else
      bson_init (out);
   const bool ok = !mongoc_cursor_error (cursor, error);
   mongoc_cursor_destroy (cursor);
   bson_destroy (opts);
   bson_destroy (&filter);
   mongoc_collection_destroy (c);
   return ok;
}

/* `doc` copied into `out` with `value` at `path` (NULL-terminated) and without `drop`. */
static bool copy_with_{{name_}} (const bson_t *doc, const char *const *path,
                                 const bson_iter_t *value, const char *drop, bson_t *out)
{
   bson_iter_t it;
   if (!bson_iter_init (&it, doc))
      return false;
   while (bson_iter_next (&it)) {
      const char *key = bson_iter_key (&it);
      if (drop && !strcmp (key, drop))
         continue;
      if (strcmp (key, path[0])) {
         bson_append_iter (out, NULL, -1, &it);
         continue;
      }
      if (!path[1]) {
         bson_append_iter (out, key, -1, value);
         continue;
      }
      uint32_t length = 0;
      const uint8_t *data = NULL;
      bson_t inner, child;
      if (!BSON_ITER_HOLDS_DOCUMENT (&it))
         return false;
      bson_iter_document (&it, &length, &data);
      if (!bson_init_static (&inner, data, length))
         return false;
      bson_append_document_begin (out, key, -1, &child);
      const bool ok = copy_with_{{name_}} (&inner, path + 1, value, NULL, &child);
      bson_append_document_end (out, &child);
      if (!ok)
         return false;
   }
   return true;
}

/* Read path: the document whole into `out` (initialized; the caller destroys it), as it was
 * before the extraction: where it holds the flag, the value from the side collection back in
 * its place and the flag gone. `*found` false if there is no such document. */
bool read_{{name_}} (mongoc_database_t *db, const bson_value_t *id, bson_t *out, bool *found,
                     bson_error_t *error)
{
   bson_t doc, side;
   bool whole = false;
   bson_iter_t flag, leaf;
   if (!find_one_{{name_}} (db, {{collection}}, id, &doc, found, error)) {
      bson_destroy (&doc);
      bson_init (out);
      return false;
   }
   if (!*found || !bson_iter_init_find (&flag, &doc, {{flag}}) || !BSON_ITER_HOLDS_BOOL (&flag) ||
       !bson_iter_bool (&flag)) {
      bson_copy_to (&doc, out);
      bson_destroy (&doc);
      return true;
   }
   bool ok = find_one_{{name_}} (db, {{side}}, id, &side, &whole, error);
   bson_init (out);
   if (ok && (!whole || !bson_iter_init_find (&leaf, &side, {{leaf}}))) {
      bson_set_error (error, MONGOC_ERROR_BSON, MONGOC_ERROR_BSON_INVALID,
                      "read_{{name_}}: the side collection lost the whole value");
      ok = false;
   }
   if (ok && !copy_with_{{name_}} (&doc, path_{{name_}}, &leaf, {{flag}}, out)) {
      bson_set_error (error, MONGOC_ERROR_BSON, MONGOC_ERROR_BSON_INVALID,
                      "read_{{name_}}: the path passes through a value that is no sub-document");
      ok = false;
   }
   bson_destroy (&side);
   bson_destroy (&doc);
   return ok;
}

/* Write path: `value` whole into the side collection first, then its excerpt and the flag
 * into the document, so a reader never finds the flag without the whole value. Of writers
 * racing on one document, the last to write the side collection holds the whole value
 * (read_{{name_}} returns it); the excerpt may be another's. */
bool write_{{name_}} (mongoc_database_t *db, const bson_value_t *id, const bson_value_t *value,
                      bson_error_t *error)
{
   bson_t filter = BSON_INITIALIZER, whole = BSON_INITIALIZER, update = BSON_INITIALIZER, set;
   BSON_APPEND_VALUE (&filter, "_id", id);
   BSON_APPEND_VALUE (&whole, "_id", id);
   BSON_APPEND_VALUE (&whole, {{leaf}}, value);
   BSON_APPEND_DOCUMENT_BEGIN (&update, "$set", &set);
   bool ok = append_excerpt_{{name_}} (&set, {{path}}, value, error);
   BSON_APPEND_BOOL (&set, {{flag}}, true);
   bson_append_document_end (&update, &set);
   mongoc_collection_t *side = mongoc_database_get_collection (db, {{side}});
   mongoc_collection_t *docs = mongoc_database_get_collection (db, {{collection}});
   bson_t *upsert = BCON_NEW ("upsert", BCON_BOOL (true));
   ok = ok && mongoc_collection_replace_one (side, &filter, &whole, upsert, NULL, error);
   if (ok) {
      bson_t reply;
      bson_iter_t matched;
      ok = mongoc_collection_update_one (docs, &filter, &update, NULL, &reply, error);
      if (ok && bson_iter_init_find (&matched, &reply, "matchedCount") &&
          bson_iter_as_int64 (&matched) == 0) {
         mongoc_collection_delete_one (side, &filter, NULL, NULL, NULL);
         bson_set_error (error, MONGOC_ERROR_BSON, MONGOC_ERROR_BSON_INVALID,
                         "write_{{name_}}: no such document");
         ok = false;
      }
      bson_destroy (&reply);
   }
   bson_destroy (upsert);
   mongoc_collection_destroy (docs);
   mongoc_collection_destroy (side);
   bson_destroy (&update);
   bson_destroy (&whole);
   bson_destroy (&filter);
   return ok;
}
)c";

} // namespace

const char *ExtractTemplates::compiled(CodeLanguage language)
{
    switch (language) {
    case CodeLanguage::Java:
        return kJava;
    case CodeLanguage::C:
        return kC;
    case CodeLanguage::Go:
        return kGo;
    default:
        return "";
    }
}

} // namespace oe
