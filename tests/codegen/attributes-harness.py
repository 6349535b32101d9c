# Runs a generated PyMongo attribute snippet (`codegen --attributes`) against a server: commands
# on standard input, one per line ("read ID", "set ID NAME JSON", "unset ID NAME", "find NAME
# JSON"; ids are integers); each read prints "ID: key=<JSON> ..." over the document's fields
# after _id, in order, or "ID: none"; each find prints "find: ID ..." (sorted).
# Usage: python3 attributes-harness.py SNIPPET.py URI DB NAME_
import importlib.util
import json
import sys

from pymongo import MongoClient


def text(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def main():
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8")
    path, uri, db_name, name = sys.argv[1:5]
    spec = importlib.util.spec_from_file_location("snippet", path)
    snippet = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(snippet)
    read = getattr(snippet, "read_" + name)
    client = MongoClient(uri)
    db = client[db_name]
    try:
        for line in sys.stdin:
            w = line.rstrip("\n").split(" ", 3)
            if not w or not w[0]:
                continue
            if w[0] == "read":
                doc = read(db, int(w[1]))
                print("%s: none" % w[1] if doc is None else
                      "%s: %s" % (w[1], " ".join("%s=%s" % (k, text(v))
                                                 for k, v in doc.items() if k != "_id")),
                      flush=True)
            elif w[0] == "set":
                getattr(snippet, "set_" + name)(db, int(w[1]), w[2], json.loads(w[3]))
            elif w[0] == "unset":
                getattr(snippet, "unset_" + name)(db, int(w[1]), w[2])
            elif w[0] == "find":
                found = sorted(d["_id"] for d in
                               getattr(snippet, "find_by_" + name)(db, w[1], json.loads(w[2])))
                print("find: " + " ".join(str(i) for i in found), flush=True)
            else:
                raise SystemExit("unknown command: " + line.strip())
    finally:
        client.close()


if __name__ == "__main__":
    main()
