/* Runs a generated libmongoc extract snippet (`codegen --extract --path post.body`, #included)
 * against a server: commands on standard input, one per line ("read ID", "write ID TEXT",
 * "writebin ID N": N bytes i % 251, "writedoc ID": {title: "T", text: "long", lang: "ru"});
 * each read prints "ID: <post.body of the document read> <+ if the flag is still in it, else
 * ->", or "ID: none". Usage: extract-harness URI DB */
#include "snippet.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_read (const char *id, const bson_t *doc, bool found)
{
   bson_iter_t it, body;
   if (!found) {
      printf ("%s: none\n", id);
   } else if (bson_iter_init (&it, doc) && bson_iter_find_descendant (&it, "post.body", &body) &&
              BSON_ITER_HOLDS_UTF8 (&body)) {
      printf ("%s: %s %s\n", id, bson_iter_utf8 (&body, NULL),
              bson_has_field (doc, "has_full_post_body") ? "+" : "-");
   } else {
      printf ("%s: no post.body\n", id);
   }
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
   static char line[1 << 16];
   bool ok = true;
   while (ok && fgets (line, sizeof line, stdin)) {
      char *save = NULL;
      const char *op = strtok_r (line, " \n", &save);
      const char *id = op ? strtok_r (NULL, " \n", &save) : NULL;
      const char *text = id ? strtok_r (NULL, " \n", &save) : NULL;
      if (!id)
         continue;
      bson_value_t key = {.value_type = BSON_TYPE_UTF8};
      key.value.v_utf8.str = (char *) id;
      key.value.v_utf8.len = (uint32_t) strlen (id);
      if (!strcmp (op, "read")) {
         bson_t doc;
         bool found = false;
         ok = read_post_body (db, &key, &doc, &found, &error);
         if (ok)
            print_read (id, &doc, found);
         bson_destroy (&doc);
      } else if (!strcmp (op, "write") && text) {
         bson_value_t value = {.value_type = BSON_TYPE_UTF8};
         value.value.v_utf8.str = (char *) text;
         value.value.v_utf8.len = (uint32_t) strlen (text);
         ok = write_post_body (db, &key, &value, &error);
      } else if (!strcmp (op, "writebin") && text) {
         static uint8_t data[1 << 16];
         const uint32_t n = (uint32_t) atoi (text);
         for (uint32_t i = 0; i < n && i < sizeof data; i++)
            data[i] = (uint8_t) (i % 251);
         bson_value_t value = {.value_type = BSON_TYPE_BINARY};
         value.value.v_binary.data = data;
         value.value.v_binary.data_len = n;
         value.value.v_binary.subtype = BSON_SUBTYPE_BINARY;
         ok = write_post_body (db, &key, &value, &error);
      } else if (!strcmp (op, "writedoc")) {
         bson_t *doc = BCON_NEW ("title", "T", "text", "long", "lang", "ru");
         bson_value_t value = {.value_type = BSON_TYPE_DOCUMENT};
         value.value.v_doc.data = (uint8_t *) bson_get_data (doc);
         value.value.v_doc.data_len = doc->len;
         ok = write_post_body (db, &key, &value, &error);
         bson_destroy (doc);
      } else {
         fprintf (stderr, "unknown command: %s\n", op);
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
