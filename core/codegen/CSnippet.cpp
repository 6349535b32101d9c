#include "codegen/CSnippet.h"

#include "codegen/CodeTemplate.h"

namespace oe {

namespace {

constexpr const char *kTemplate =
    R"c(// Outlier pattern, as Outlier Explorer split it: the first {{keep}} elements of the array
// {{field}} of the collection {{collection}} stay in the document; the rest live in
// the collection {{overflow}}, in pages of {{pageSize}} linked by {{link}} and
// numbered by {{page}}; {{flag}} marks a split document.
// C with libmongoc: cc app.c $(pkg-config --cflags --libs libmongoc-1.0)
#include <mongoc/mongoc.h>

#define KEEP_{{NAME}} INT64_C ({{keep}})
#define PAGE_SIZE_{{NAME}} INT64_C ({{pageSize}})

/* Once: the index the split created. Pages of one document in order; unique, so two writers
 * can never open the same page twice. */
bool create_overflow_index_{{name_}} (mongoc_database_t *db, bson_error_t *error)
{
   bson_t command = BSON_INITIALIZER, indexes, index, key;
   BSON_APPEND_UTF8 (&command, "createIndexes", {{overflow}});
   BSON_APPEND_ARRAY_BEGIN (&command, "indexes", &indexes);
   BSON_APPEND_DOCUMENT_BEGIN (&indexes, "0", &index);
   BSON_APPEND_DOCUMENT_BEGIN (&index, "key", &key);
   BSON_APPEND_INT32 (&key, {{link}}, 1);
   BSON_APPEND_INT32 (&key, {{page}}, 1);
   bson_append_document_end (&index, &key);
   BSON_APPEND_UTF8 (&index, "name", {{indexName}});
   BSON_APPEND_BOOL (&index, "unique", true);
   bson_append_document_end (&indexes, &index);
   bson_append_array_end (&command, &indexes);
   bool ok = mongoc_database_write_command_with_opts (db, &command, NULL, NULL, error);
   bson_destroy (&command);
   return ok;
}

/* doc[outer] = {inner: value}. Names never go through BCON, which reads any string that starts
 * with a bracket as structure. */
static void append_int64_in_{{name_}} (bson_t *doc, const char *outer, const char *inner,
                                       int64_t value)
{
   bson_t child;
   bson_append_document_begin (doc, outer, -1, &child);
   bson_append_int64 (&child, inner, -1, value);
   bson_append_document_end (doc, &child);
}

/* doc[key] = {$ifNull: [ref, []]} */
static void append_or_empty_{{name_}} (bson_t *doc, const char *key, const char *ref)
{
   bson_t if_null, args, empty;
   bson_append_document_begin (doc, key, -1, &if_null);
   bson_append_array_begin (&if_null, "$ifNull", -1, &args);
   bson_append_utf8 (&args, "0", -1, ref, -1);
   bson_append_array_begin (&args, "1", -1, &empty);
   bson_append_array_end (&args, &empty);
   bson_append_array_end (&if_null, &args);
   bson_append_document_end (doc, &if_null);
}

/* doc[key] = the array's length: {$size: {$ifNull: ["$field", []]}} */
static void append_size_{{name_}} (bson_t *doc, const char *key)
{
   bson_t size;
   bson_append_document_begin (doc, key, -1, &size);
   append_or_empty_{{name_}} (&size, "$size", {{fieldRef}});
   bson_append_document_end (doc, &size);
}

/* doc[key] = {$ne: [first, <second>]}, second appended by the caller under "1" of *args. */
static void begin_ne_{{name_}} (bson_t *doc, const char *key, bson_t *ne, bson_t *args)
{
   bson_append_document_begin (doc, key, -1, ne);
   bson_append_array_begin (ne, "$ne", -1, args);
}

static void end_ne_{{name_}} (bson_t *doc, bson_t *ne, bson_t *args)
{
   bson_append_array_end (ne, args);
   bson_append_document_end (doc, ne);
}

/* doc[key] = the room in the document: no flag, and not exactly KEEP elements:
 * {$and: [{$ne: ["$flag", true]}, {$ne: [<size>, KEEP]}]} */
static void append_room_{{name_}} (bson_t *doc, const char *key)
{
   bson_t all, terms, ne, args;
   bson_append_document_begin (doc, key, -1, &all);
   bson_append_array_begin (&all, "$and", -1, &terms);
   begin_ne_{{name_}} (&terms, "0", &ne, &args);
   bson_append_utf8 (&args, "0", -1, {{flagRef}}, -1);
   bson_append_bool (&args, "1", -1, true);
   end_ne_{{name_}} (&terms, &ne, &args);
   begin_ne_{{name_}} (&terms, "1", &ne, &args);
   append_size_{{name_}} (&args, "0");
   bson_append_int64 (&args, "1", -1, KEEP_{{NAME}});
   end_ne_{{name_}} (&terms, &ne, &args);
   bson_append_array_end (&all, &terms);
   bson_append_document_end (doc, &all);
}

/* doc[field] = {$cond: [<room>, <"1">, <"2">]}, "1" and "2" appended by the caller. */
static void begin_if_room_{{name_}} (bson_t *doc, const char *field, bson_t *cond, bson_t *args)
{
   bson_append_document_begin (doc, field, -1, cond);
   bson_append_array_begin (cond, "$cond", -1, args);
   append_room_{{name_}} (args, "0");
}

static void end_if_room_{{name_}} (bson_t *doc, bson_t *cond, bson_t *args)
{
   bson_append_array_end (cond, args);
   bson_append_document_end (doc, cond);
}

/* The update pipeline of the write path's first round trip: count the element, then push it
 * into the document if it has room, else set the flag{{andPages}}. */
static void append_slot_pipeline_{{name_}} (bson_t *command, const bson_value_t *item)
{
   bson_t pipeline, stage, set, add, add_args, if_null, if_null_args, cond, cond_args, concat,
      parts, tail, literal;
   bson_append_array_begin (command, "update", -1, &pipeline);
   /* {$set: {count: {$add: [{$ifNull: ["$count", <size>]}, 1]}}} */
   bson_append_document_begin (&pipeline, "0", -1, &stage);
   bson_append_document_begin (&stage, "$set", -1, &set);
   bson_append_document_begin (&set, {{count}}, -1, &add);
   bson_append_array_begin (&add, "$add", -1, &add_args);
   bson_append_document_begin (&add_args, "0", -1, &if_null);
   bson_append_array_begin (&if_null, "$ifNull", -1, &if_null_args);
   bson_append_utf8 (&if_null_args, "0", -1, {{countRef}}, -1);
   append_size_{{name_}} (&if_null_args, "1");
   bson_append_array_end (&if_null, &if_null_args);
   bson_append_document_end (&add_args, &if_null);
   bson_append_int32 (&add_args, "1", -1, 1);
   bson_append_array_end (&add, &add_args);
   bson_append_document_end (&set, &add);
   bson_append_document_end (&stage, &set);
   bson_append_document_end (&pipeline, &stage);
   /* {$set: {field: {$cond: [<room>, {$concatArrays: [{$ifNull: ["$field", []]},
    *                                                  [{$literal: item}]]}, "$field"]}, ...}} */
   bson_append_document_begin (&pipeline, "1", -1, &stage);
   bson_append_document_begin (&stage, "$set", -1, &set);
   begin_if_room_{{name_}} (&set, {{field}}, &cond, &cond_args);
   bson_append_document_begin (&cond_args, "1", -1, &concat);
   bson_append_array_begin (&concat, "$concatArrays", -1, &parts);
   append_or_empty_{{name_}} (&parts, "0", {{fieldRef}});
   bson_append_array_begin (&parts, "1", -1, &tail);
   bson_append_document_begin (&tail, "0", -1, &literal);
   bson_append_value (&literal, "$literal", -1, item);
   bson_append_document_end (&tail, &literal);
   bson_append_array_end (&parts, &tail);
   bson_append_array_end (&concat, &parts);
   bson_append_document_end (&cond_args, &concat);
   bson_append_utf8 (&cond_args, "2", -1, {{fieldRef}}, -1);
   end_if_room_{{name_}} (&set, &cond, &cond_args);
   begin_if_room_{{name_}} (&set, {{flag}}, &cond, &cond_args);
   bson_append_utf8 (&cond_args, "1", -1, {{flagRef}}, -1);
   bson_append_bool (&cond_args, "2", -1, true);
   end_if_room_{{name_}} (&set, &cond, &cond_args);
{{pagesSet}}   bson_append_document_end (&stage, &set);
   bson_append_document_end (&pipeline, &stage);
   bson_append_array_end (command, &pipeline);
}

/* Write path: appends `item` to the document's array, wherever it belongs, in at most two
 * round trips. The first, one atomic update of the document, pushes `item` into it while it
 * has room (no flag, and not exactly KEEP elements: one holding more is an outlier the split
 * has not reached yet, and grows in place until it does), or else reserves the next overflow
 * slot: it counts `item` in the count field (the total length) and sets the flag{{andPages}}.
 * The second pushes `item` to the page its slot falls in, opening that page if it is the
 * first. The server hands out each slot once, so concurrent writers never collide. Needs
 * MongoDB 4.2+ (an update pipeline); `item` goes in through $literal, never evaluated. */
bool append_{{name_}} (mongoc_database_t *db, const bson_value_t *id, const bson_value_t *item,
                     bson_error_t *error)
{
   bson_t command = BSON_INITIALIZER, query, fields, reply;
   BSON_APPEND_UTF8 (&command, "findAndModify", {{collection}});
   BSON_APPEND_DOCUMENT_BEGIN (&command, "query", &query);
   BSON_APPEND_VALUE (&query, "_id", id);
   bson_append_document_end (&command, &query);
   append_slot_pipeline_{{name_}} (&command, item);
   BSON_APPEND_DOCUMENT_BEGIN (&command, "fields", &fields);
   bson_append_int32 (&fields, {{count}}, -1, 1);
   bson_append_int32 (&fields, {{flag}}, -1, 1);
   bson_append_document_end (&command, &fields);
   BSON_APPEND_BOOL (&command, "new", true);
   bool ok = mongoc_database_write_command_with_opts (db, &command, NULL, &reply, error);
   bool found = false, flagged = false;
   int64_t count = 0;
   bson_iter_t it, value;
   if (ok && bson_iter_init_find (&it, &reply, "value") && BSON_ITER_HOLDS_DOCUMENT (&it) &&
       bson_iter_recurse (&it, &value)) {
      found = true;
      while (bson_iter_next (&value)) {
         if (strcmp (bson_iter_key (&value), {{flag}}) == 0)
            flagged = BSON_ITER_HOLDS_BOOL (&value) && bson_iter_bool (&value);
         else if (strcmp (bson_iter_key (&value), {{count}}) == 0)
            count = bson_iter_as_int64 (&value);
      }
   }
   bson_destroy (&reply);
   bson_destroy (&command);
   if (ok && !found) {
      bson_set_error (error, MONGOC_ERROR_QUERY, MONGOC_ERROR_QUERY_FAILURE, "no such document");
      ok = false;
   }
   if (!ok || !flagged) /* !flagged: it went into the document */
      return ok;
   int64_t slot = count - KEEP_{{NAME}} - 1; /* its position among the overflow elements */
   mongoc_collection_t *pages = mongoc_database_get_collection (db, {{overflow}});
   for (int attempt = 0;; attempt++) {
      bson_t filter = BSON_INITIALIZER, update = BSON_INITIALIZER, push;
      BSON_APPEND_VALUE (&filter, {{link}}, id);
      BSON_APPEND_INT64 (&filter, {{page}}, slot / PAGE_SIZE_{{NAME}});
      BSON_APPEND_DOCUMENT_BEGIN (&update, "$push", &push);
      BSON_APPEND_VALUE (&push, {{items}}, item);
      bson_append_document_end (&update, &push);
      bson_t *opts = BCON_NEW ("upsert", BCON_BOOL (true));
      ok = mongoc_collection_update_one (pages, &filter, &update, opts, NULL, error);
      bson_destroy (opts);
      bson_destroy (&update);
      bson_destroy (&filter);
      /* Two writers opening one page: the loser finds it there on the next try. */
      if (ok || error->code != 11000 || attempt == 2)
         break;
   }
   mongoc_collection_destroy (pages);
   return ok;
}

/* Read path: `count` elements (all when count < 0) from position `start` (0 is the first), in
 * order, appended to `out` as an array ("0", "1", ...). The first KEEP come from the
 * document; deeper ones from the pages that hold them. False with `error` set if there is no
 * such document or the server fails. */
bool read_{{name_}} (mongoc_database_t *db, const bson_value_t *id, int64_t start, int64_t count,
                   bson_t *out, bson_error_t *error)
{
   mongoc_collection_t *docs = mongoc_database_get_collection (db, {{collection}});
   bson_t filter = BSON_INITIALIZER;
   BSON_APPEND_VALUE (&filter, "_id", id);
   mongoc_cursor_t *cursor = mongoc_collection_find_with_opts (docs, &filter, NULL, NULL);
   const bson_t *doc;
   bson_t *parent = NULL;
   if (mongoc_cursor_next (cursor, &doc))
      parent = bson_copy (doc);
   bool ok = !mongoc_cursor_error (cursor, error);
   mongoc_cursor_destroy (cursor);
   mongoc_collection_destroy (docs);
   bson_destroy (&filter);
   if (ok && !parent) {
      bson_set_error (error, MONGOC_ERROR_QUERY, MONGOC_ERROR_QUERY_FAILURE, "no such document");
      ok = false;
   }
   if (!ok)
      return false;

   int64_t at = 0, taken = 0; /* at: the position of the next element */
   char key[16];
   const char *k;
   bson_iter_t it, array;
   if (bson_iter_init (&it, parent) && bson_iter_find_descendant (&it, {{field}}, &array) &&
       BSON_ITER_HOLDS_ARRAY (&array) && bson_iter_recurse (&array, &it)) {
      while (bson_iter_next (&it) && (count < 0 || taken < count)) {
         if (at++ >= start) {
            bson_uint32_to_string ((uint32_t) taken++, &k, key, sizeof key);
            bson_append_value (out, k, -1, bson_iter_value (&it));
         }
      }
   }
   bool flagged = bson_iter_init_find (&it, parent, {{flag}}) && bson_iter_as_bool (&it);
   bson_destroy (parent);
   if (!flagged || taken == count)
      return true;

   int64_t first = (start > at ? start - at : 0) / PAGE_SIZE_{{NAME}};
   mongoc_collection_t *pages = mongoc_database_get_collection (db, {{overflow}});
   bson_t query = BSON_INITIALIZER, range;
   BSON_APPEND_VALUE (&query, {{link}}, id);
   BSON_APPEND_DOCUMENT_BEGIN (&query, {{page}}, &range);
   BSON_APPEND_INT64 (&range, "$gte", first);
   if (count >= 0)
      BSON_APPEND_INT64 (&range, "$lte", (start + count - 1 - at) / PAGE_SIZE_{{NAME}});
   bson_append_document_end (&query, &range);
   bson_t *opts = bson_new ();
   append_int64_in_{{name_}} (opts, "sort", {{page}}, 1);
   at += first * PAGE_SIZE_{{NAME}}; /* the position of the page's first element */
   cursor = mongoc_collection_find_with_opts (pages, &query, opts, NULL);
   while (mongoc_cursor_next (cursor, &doc)) {
      if (!bson_iter_init_find (&array, doc, {{items}}) || !bson_iter_recurse (&array, &it))
         continue;
      while (bson_iter_next (&it)) {
         if (at++ >= start && (count < 0 || taken < count)) {
            bson_uint32_to_string ((uint32_t) taken++, &k, key, sizeof key);
            bson_append_value (out, k, -1, bson_iter_value (&it));
         }
      }
   }
   ok = !mongoc_cursor_error (cursor, error);
   mongoc_cursor_destroy (cursor);
   bson_destroy (opts);
   bson_destroy (&query);
   mongoc_collection_destroy (pages);
   return ok;
}

/* Every element, in order. */
bool read_all_{{name_}} (mongoc_database_t *db, const bson_value_t *id, bson_t *out,
                       bson_error_t *error)
{
   return read_{{name_}} (db, id, 0, -1, out, error);
}
)c";

} // namespace

QString CSnippet::generate(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    QHash<QString, QString> names = CodeTemplate::names(c, CodeLanguage::C);
    names.insert(QStringLiteral("NAME"), names.value(QStringLiteral("name_")).toUpper());
    // BCON for the expression only: its keys are operators, the names go in as typed values.
    names.insert(
        QStringLiteral("pagesSet"),
        c.pagesField.isEmpty()
            ? QString()
            : QStringLiteral(
                  "   begin_if_room_%4 (&set, %1, &cond, &cond_args);\n"
                  "   bson_append_utf8 (&cond_args, \"1\", -1, %2, -1);\n"
                  "   /* {$max: [{$ifNull: [\"$pages\", 0]}, 1 + floor((count - KEEP - 1) / "
                  "PAGE_SIZE)]} */\n"
                  "   BCON_APPEND (&cond_args, \"2\", \"{\", \"$max\", \"[\", \"{\", "
                  "\"$ifNull\", \"[\", BCON_UTF8 (%2),\n"
                  "                BCON_INT64 (0), \"]\", \"}\", \"{\", \"$toLong\", \"{\", "
                  "\"$add\", \"[\", BCON_INT64 (1), \"{\",\n"
                  "                \"$floor\", \"{\", \"$divide\", \"[\", \"{\", \"$subtract\", "
                  "\"[\", BCON_UTF8 (%3),\n"
                  "                BCON_INT64 (KEEP_%5 + 1), \"]\", \"}\", BCON_INT64 "
                  "(PAGE_SIZE_%5), \"]\", \"}\", \"}\",\n"
                  "                \"]\", \"}\", \"}\", \"]\", \"}\");\n"
                  "   end_if_room_%4 (&set, &cond, &cond_args);\n")
                  .arg(names.value(QStringLiteral("pages")),
                       names.value(QStringLiteral("pagesRef")),
                       names.value(QStringLiteral("countRef")),
                       names.value(QStringLiteral("name_")), names.value(QStringLiteral("NAME"))));
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
