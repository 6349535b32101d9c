# Runs a generated PyMongo snippet against a server: commands on standard input, one per line
# ("index", "append ID N", "read ID FROM COUNT", "all ID"); each read prints "ID: n,n,...".
# Usage: python3 harness.py SNIPPET.py URI DB NAME
import importlib.util
import sys

from pymongo import MongoClient


def main():
    path, uri, db_name, name = sys.argv[1:5]
    spec = importlib.util.spec_from_file_location("snippet", path)
    snippet = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(snippet)
    client = MongoClient(uri)
    db = client[db_name]
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            op, args = words[0], words[1:]
            if op == "index":
                snippet.create_overflow_index(db)
            elif op == "append":
                getattr(snippet, "append_" + name)(db, args[0], {"n": int(args[1])})
            elif op in ("read", "all"):
                items = (getattr(snippet, "read_all_" + name)(db, args[0]) if op == "all" else
                         getattr(snippet, "read_" + name)(db, args[0], int(args[1]), int(args[2])))
                print("%s: %s" % (args[0], ",".join(str(i["n"]) for i in items)), flush=True)
            else:
                raise SystemExit("unknown command: " + line.strip())
    finally:
        client.close()


if __name__ == "__main__":
    main()
