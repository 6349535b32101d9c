/* Runs a generated libmongoc snippet (#included; its functions end in OE_NAME, default
 * "comments": cc -DOE_NAME=...) against a server: commands on standard input, one per line
 * ("index", "append ID N", "read ID FROM COUNT", "all ID"); each read prints "ID: n,n,...".
 * Usage: harness URI DB */
#include "snippet.c"

#ifndef OE_NAME
#define OE_NAME comments
#endif
#define OE_CAT2(a, b) a##b
#define OE_CAT(a, b) OE_CAT2 (a, b)
#define OE_FN(prefix) OE_CAT (prefix, OE_NAME)

#include <stdio.h>
#include <string.h>

static void print_items (const char *id, const bson_t *items)
{
   bson_iter_t it, n;
   bool first = true;
   printf ("%s: ", id);
   if (bson_iter_init (&it, items))
      while (bson_iter_next (&it))
         if (bson_iter_recurse (&it, &n) && bson_iter_find (&n, "n")) {
            printf ("%s%lld", first ? "" : ",", (long long) bson_iter_as_int64 (&n));
            first = false;
         }
   printf ("\n");
   fflush (stdout);
}

int main (int argc, char **argv)
{
   if (argc != 3)
      return 2;
   mongoc_init ();
   bson_error_t error;
   mongoc_uri_t *uri = mongoc_uri_new_with_error (argv[1], &error);
   if (!uri) {
      fprintf (stderr, "%s\n", error.message);
      return 1;
   }
   mongoc_client_t *client = mongoc_client_new_from_uri (uri);
   mongoc_database_t *db = mongoc_client_get_database (client, argv[2]);
   char line[256];
   bool ok = true;
   while (ok && fgets (line, sizeof line, stdin)) {
      char op[16], id[64];
      long long a = 0, b = 0;
      if (sscanf (line, "%15s %63s %lld %lld", op, id, &a, &b) < 1)
         continue;
      bson_value_t key = {.value_type = BSON_TYPE_UTF8};
      key.value.v_utf8.str = id;
      key.value.v_utf8.len = (uint32_t) strlen (id);
      if (!strcmp (op, "index")) {
         ok = OE_FN (create_overflow_index_) (db, &error);
      } else if (!strcmp (op, "append")) {
         bson_t *item = BCON_NEW ("n", BCON_INT64 (a));
         bson_value_t value = {.value_type = BSON_TYPE_DOCUMENT};
         value.value.v_doc.data = (uint8_t *) bson_get_data (item);
         value.value.v_doc.data_len = item->len;
         ok = OE_FN (append_) (db, &key, &value, &error);
         bson_destroy (item);
      } else if (!strcmp (op, "read") || !strcmp (op, "all")) {
         bson_t items = BSON_INITIALIZER;
         ok = !strcmp (op, "all") ? OE_FN (read_all_) (db, &key, &items, &error)
                                  : OE_FN (read_) (db, &key, a, b, &items, &error);
         if (ok)
            print_items (id, &items);
         bson_destroy (&items);
      } else {
         fprintf (stderr, "unknown command: %s", line);
         return 1;
      }
   }
   if (!ok)
      fprintf (stderr, "%s\n", error.message);
   mongoc_database_destroy (db);
   mongoc_client_destroy (client);
   mongoc_uri_destroy (uri);
   mongoc_cleanup ();
   return ok ? 0 : 1;
}
