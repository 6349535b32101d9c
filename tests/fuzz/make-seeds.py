#!/usr/bin/env python3
"""Writes the fuzzers' seed inputs from the CLI's deterministic demo data.

    python3 tests/fuzz/make-seeds.py build/bin/outlier-explorer-cli OUTDIR

OUTDIR/fuzz_dumpreader/ gets small .bson dumps (a few documents of each demo dataset, long
arrays trimmed to a few elements so every seed stays well under the fuzzers' -max_len) and one
gzip-compressed dump; OUTDIR/fuzz_offlinesplit/ gets the same dumps behind the configuration
byte fuzz_offlinesplit.cpp reads (field, keep, page size, count/pages fields). The committed
corpus in tests/fuzz/corpus/ is these seeds plus what fuzzing added, minimised:

    OE_FUZZ_SECONDS=300 OE_FUZZ_KEEP=/tmp/grown bash packaging/run-fuzz.sh
    build-fuzz/bin/fuzz_TARGET -merge=1 -use_counters=0 -max_len=16384 \
        SEEDS_COPY/fuzz_TARGET /tmp/grown/fuzz_TARGET

"""
import gzip
import os
import struct
import subprocess
import sys
import tempfile

FIXED = {1: 8, 7: 12, 8: 1, 9: 8, 10: 0, 16: 4, 17: 8, 18: 8, 19: 16, 127: 0, 255: 0}


def documents(data):
    at = 0
    while at < len(data):
        (n,) = struct.unpack_from("<i", data, at)
        yield data[at:at + n]
        at += n


def elements(doc):
    """(type, name, raw element bytes) of a BSON document's top level."""
    at = 4
    while doc[at] != 0:
        start, kind = at, doc[at]
        at = doc.index(b"\0", at + 1) + 1
        name = doc[start + 1:at - 1].decode()
        if kind in (3, 4, 15):
            at += struct.unpack_from("<i", doc, at)[0]
        elif kind in (2, 13, 14):
            at += 4 + struct.unpack_from("<i", doc, at)[0]
        elif kind == 5:
            at += 5 + struct.unpack_from("<i", doc, at)[0]
        elif kind == 11:
            at = doc.index(b"\0", doc.index(b"\0", at) + 1) + 1
        elif kind == 12:
            at += 4 + struct.unpack_from("<i", doc, at)[0] + 12
        else:
            at += FIXED[kind]
        yield kind, name, doc[start:at]


def document(parts):
    body = b"".join(parts)
    return struct.pack("<i", len(body) + 5) + body + b"\0"


def trimmed(doc, field, keep):
    """The document with its top-level array `field` cut to its first `keep` elements."""
    out = []
    for kind, name, raw in elements(doc):
        if kind == 4 and name == field:
            header = len(name) + 2
            items = [e for _, _, e in elements(raw[header:])][:keep]
            raw = raw[:header] + document(items)
        out.append(raw)
    return document(out)


def main():
    cli, outdir = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        data = {}
        for dataset, docs in (("book_sales", 8), ("activity_feeds", 2), ("viral_posts", 8),
                              ("feed_bench", 4)):
            subprocess.run([cli, "demo-data", "--out", tmp, "--dataset", dataset, "--docs",
                            str(docs)], check=True, stdout=subprocess.DEVNULL)
            with open(os.path.join(tmp, dataset + ".bson"), "rb") as f:
                data[dataset] = list(documents(f.read()))
    books, feeds, posts, bench = (data["book_sales"], data["activity_feeds"],
                                  data["viral_posts"], data["feed_bench"])
    # Best seller (2,288 buyers) cut to 60: longer than keep 50, like the demo's outliers.
    dumps = {
        "book_sales_small": books[0] + books[1] + books[3],
        "book_sales_bestseller": books[5] + trimmed(books[2], "customers_purchased", 60) + books[7],
        "activity_feeds": b"".join(trimmed(d, "activities", 6) for d in feeds),
        "viral_posts": b"".join([d for d in posts if len(d) < 1000][:3]),
        "feed_bench": bench[2] + bench[3],
    }
    # Configuration byte: field (bits 0-1), keep index (2-4), page size index (5-6), count (7).
    split_seeds = {
        "book_sales_small": [0x28],         # customers_purchased, keep 2, page size 2
        "book_sales_bestseller": [0x5C],    # customers_purchased, keep 50, page size 7
        "activity_feeds": [0xA9],           # activities, keep 2, page size 2, count/pages
        "viral_posts": [0x02],              # comments, keep 0, page size 1
        "feed_bench": [0xCD],               # activities, keep 3, page size 7, count/pages
    }
    reader = os.path.join(outdir, "fuzz_dumpreader")
    splitter = os.path.join(outdir, "fuzz_offlinesplit")
    os.makedirs(reader, exist_ok=True)
    os.makedirs(splitter, exist_ok=True)

    def write(path, content):
        with open(path, "wb") as f:
            f.write(content)

    for name, dump in dumps.items():
        write(os.path.join(reader, name + ".bson"), dump)
        for selector in split_seeds[name]:
            write(os.path.join(splitter, "%s_%02x" % (name, selector)), bytes([selector]) + dump)
    packed = gzip.compress(dumps["book_sales_small"], compresslevel=9, mtime=0)
    write(os.path.join(reader, "book_sales_small.bson.gz"), packed)
    write(os.path.join(splitter, "book_sales_small_gz_28"), bytes([0x28]) + packed)
    write(os.path.join(reader, "empty_document.bson"), document([]))


if __name__ == "__main__":
    main()
