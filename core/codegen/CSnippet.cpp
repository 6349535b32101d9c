#include "CSnippet.h"

#include "CodeTemplate.h"

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
static void append_bool_in_{{name_}} (bson_t *doc, const char *outer, const char *inner,
                                      bool value)
{
   bson_t child;
   bson_append_document_begin (doc, outer, -1, &child);
   bson_append_bool (&child, inner, -1, value);
   bson_append_document_end (doc, &child);
}

static void append_int64_in_{{name_}} (bson_t *doc, const char *outer, const char *inner,
                                       int64_t value)
{
   bson_t child;
   bson_append_document_begin (doc, outer, -1, &child);
   bson_append_int64 (&child, inner, -1, value);
   bson_append_document_end (doc, &child);
}

/* A count from an update's reply ("matchedCount", "upsertedCount"). */
static int64_t reply_count_{{name_}} (const bson_t *reply, const char *key)
{
   bson_iter_t it;
   return bson_iter_init_find (&it, reply, key) ? bson_iter_as_int64 (&it) : 0;
}

/* Appends `item` to one page, only while it holds fewer than PAGE_SIZE elements (the filter
 * fails once it is full); *added is 1 when it did. */
static bool push_page_{{name_}} (mongoc_collection_t *pages, const bson_value_t *id, int64_t page,
                              const bson_value_t *item, bool upsert, int *added, bool *opened,
                              bson_error_t *error)
{
   bson_t filter = BSON_INITIALIZER, update = BSON_INITIALIZER, push, reply;
   BSON_APPEND_VALUE (&filter, {{link}}, id);
   BSON_APPEND_INT64 (&filter, {{page}}, page);
   append_bool_in_{{name_}} (&filter, {{itemsPageLast}}, "$exists", false);
   BSON_APPEND_DOCUMENT_BEGIN (&update, "$push", &push);
   BSON_APPEND_VALUE (&push, {{items}}, item);
   bson_append_document_end (&update, &push);
   bson_t *opts = BCON_NEW ("upsert", BCON_BOOL (upsert));
   bool ok = mongoc_collection_update_one (pages, &filter, &update, opts, &reply, error);
   *opened = ok && reply_count_{{name_}} (&reply, "upsertedCount") == 1;
   *added = ok && (*opened || reply_count_{{name_}} (&reply, "matchedCount") == 1);
   bson_destroy (opts);
   bson_destroy (&reply);
   bson_destroy (&update);
   bson_destroy (&filter);
   return ok;
}

/* The number of the document's last page, or -1 when it has none. */
static bool last_page_{{name_}} (mongoc_collection_t *pages, const bson_value_t *id, int64_t *last,
                              bson_error_t *error)
{
   bson_t filter = BSON_INITIALIZER;
   BSON_APPEND_VALUE (&filter, {{link}}, id);
   bson_t *opts = bson_new ();
   append_int64_in_{{name_}} (opts, "sort", {{page}}, -1);
   append_int64_in_{{name_}} (opts, "projection", {{page}}, 1);
   BSON_APPEND_INT64 (opts, "limit", 1);
   mongoc_cursor_t *cursor = mongoc_collection_find_with_opts (pages, &filter, opts, NULL);
   const bson_t *doc;
   bson_iter_t it;
   *last = -1;
   if (mongoc_cursor_next (cursor, &doc) && bson_iter_init_find (&it, doc, {{page}}))
      *last = bson_iter_as_int64 (&it);
   bool ok = !mongoc_cursor_error (cursor, error);
   mongoc_cursor_destroy (cursor);
   bson_destroy (opts);
   bson_destroy (&filter);
   return ok;
}

/* Write path: appends `item` to the document's array, wherever it belongs. One round trip
 * while the document has room; past that, to its last page, opening the next when full. */
bool append_{{name_}} (mongoc_database_t *db, const bson_value_t *id, const bson_value_t *item,
                     bson_error_t *error)
{
   mongoc_collection_t *docs = mongoc_database_get_collection (db, {{collection}});
   mongoc_collection_t *pages = mongoc_database_get_collection (db, {{overflow}});
   bool ok = true, done = false;
   if (KEEP_{{NAME}} > 0) {
      bson_t filter = BSON_INITIALIZER, update = BSON_INITIALIZER, push, reply;
      BSON_APPEND_VALUE (&filter, "_id", id);
      append_bool_in_{{name_}} (&filter, {{flag}}, "$ne", true);
      append_bool_in_{{name_}} (&filter, {{fieldKeepLast}}, "$exists", false);
      BSON_APPEND_DOCUMENT_BEGIN (&update, "$push", &push);
      BSON_APPEND_VALUE (&push, {{field}}, item);
      bson_append_document_end (&update, &push);
      ok = mongoc_collection_update_one (docs, &filter, &update, NULL, &reply, error);
      done = ok && reply_count_{{name_}} (&reply, "matchedCount") == 1;
      bson_destroy (&reply);
      bson_destroy (&update);
      bson_destroy (&filter);
   }
   while (ok && !done) {
      int64_t page;
      int added = 0;
      bool opened = false;
      ok = last_page_{{name_}} (pages, id, &page, error);
      if (ok && page < 0) /* no page yet: open page 0 */
         ok = push_page_{{name_}} (pages, id, page = 0, item, true, &added, &opened, error);
      else if (ok) {
         ok = push_page_{{name_}} (pages, id, page, item, false, &added, &opened, error);
         if (ok && !added) /* the last page is full: open the next one */
            ok = push_page_{{name_}} (pages, id, ++page, item, true, &added, &opened, error);
      }
      if (!ok && error->code == 11000) { /* another writer opened that page first: go again */
         ok = true;
         continue;
      }
      if (!ok)
         break;
{{counters}}      ok = mongoc_collection_update_one (docs, &filter, &update, NULL, NULL, error);
      bson_destroy (&update);
      bson_destroy (&filter);
      done = true;
   }
   mongoc_collection_destroy (pages);
   mongoc_collection_destroy (docs);
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
    QString counters =
        QStringLiteral("      bson_t filter = BSON_INITIALIZER, update = BSON_INITIALIZER;\n"
                       "      BSON_APPEND_VALUE (&filter, \"_id\", id);\n"
                       "      append_bool_in_%2 (&update, \"$set\", %1, true);\n")
            .arg(names.value(QStringLiteral("flag")), names.value(QStringLiteral("name_")));
    if (!c.countField.isEmpty())
        counters +=
            QStringLiteral("      /* Whoever opened page 0 also counts the KEEP elements "
                           "in the document. */\n"
                           "      append_int64_in_%3 (&update, \"$inc\", %1, "
                           "opened && page == 0 ? KEEP_%2 + 1 : 1);\n")
                .arg(names.value(QStringLiteral("count")), names.value(QStringLiteral("NAME")),
                     names.value(QStringLiteral("name_")));
    if (!c.pagesField.isEmpty())
        counters +=
            QStringLiteral("      append_int64_in_%2 (&update, \"$max\", %1, page + 1);\n")
                .arg(names.value(QStringLiteral("pages")), names.value(QStringLiteral("name_")));
    names.insert(QStringLiteral("counters"), counters);
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
