# Runs a generated PyMongo extract snippet (`codegen --extract --path post.body`) against a
# server: commands on standard input, one per line ("read ID", "write ID TEXT", "writebin ID N":
# N bytes i % 251, "writedoc ID": {title: "T", text: "long", lang: "ru"}); each read prints "ID:
# <post.body of the document read> <+ if the flag is still in it, else ->", or "ID: none".
# Usage: python3 extract-harness.py SNIPPET.py URI DB
import importlib.util
import sys

from pymongo import MongoClient

FLAG = "has_full_post_body"


def main():
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8")
    path, uri, db_name = sys.argv[1:4]
    spec = importlib.util.spec_from_file_location("snippet", path)
    snippet = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(snippet)
    client = MongoClient(uri)
    db = client[db_name]
    try:
        for line in sys.stdin:
            w = line.split()
            if not w:
                continue
            if w[0] == "read":
                doc = snippet.read_post_body(db, w[1])
                print("%s: none" % w[1] if doc is None else
                      "%s: %s %s" % (w[1], doc["post"]["body"], "+" if FLAG in doc else "-"),
                      flush=True)
            elif w[0] == "write":
                snippet.write_post_body(db, w[1], w[2])
            elif w[0] == "writebin":
                snippet.write_post_body(db, w[1], bytes(i % 251 for i in range(int(w[2]))))
            elif w[0] == "writedoc":
                snippet.write_post_body(db, w[1], {"title": "T", "text": "long", "lang": "ru"})
            else:
                raise SystemExit("unknown command: " + line.strip())
    finally:
        client.close()


if __name__ == "__main__":
    main()
