#!/usr/bin/env python3
"""make_fixtures: journals an older build wrote, interrupted, kept as fixtures (issue 55).

Usage:
  make_fixtures.py --cli OLD_CLI --commit SHA --uri URI --out DIR

For each run below, with the CLI of the build under test (OLD_CLI): a small collection is made
in the database oe_journal_fixture, its documents saved (original.bson), the run started paced
and killed with -9 part-way (retried until the journal records it mid-run, state "applying",
with entries pending: journaled, their writes not known to have landed), then every collection of the database saved as
<collection>.bson (the documents' raw bytes, in natural order) beside a manifest.json naming the
run's arguments and the build that wrote it. tst_journalfixtures imports each fixture into a
live mongod and checks today's build resumes, verifies and rolls back each run byte for byte.

The documents are generated here, deterministically; the journals are the old build's own.
"""
import argparse
import datetime
import json
import os
import random
import signal
import subprocess
import sys
import time

import bson
import pymongo
from bson.raw_bson import RawBSONDocument

DB = 'oe_journal_fixture'


def people_keys(n):
    """keys used as data: daily is {date: {views}}."""
    return [{'_id': i, 'daily': {'2026-01-%02d' % (d + 1): {'views': i * d} for d in range(3)}}
            for i in range(n)]


def prices(n):
    """a mixed type: price a string now and then."""
    return [{'_id': i, 'price': ('%d.50' % i) if i % 3 == 0 else float(i) + 0.25, 'n': i}
            for i in range(n)]


def articles(n):
    """big strings: every third body 1,100 characters."""
    return [{'_id': i, 'title': 't%d' % i, 'body': chr(97 + i % 26) * (1100 if i % 3 == 0 else 40)}
            for i in range(n)]


def scans(n):
    """big binaries: every third scan 1,100 bytes."""
    return [{'_id': i, 'scan': bson.Binary(bytes([i % 251]) * (1100 if i % 3 == 0 else 20))}
            for i in range(n)]


def catalogue(n):
    """a sparse family: attr_00..attr_29, three of them a product."""
    docs = []
    for i in range(n):
        doc = {'_id': i, 'name': 'p%d' % i}
        for j in range(3):
            doc['attr_%02d' % ((i * 7 + j * 11) % 30)] = i * 10 + j
        doc['price'] = i
        docs.append(doc)
    return docs


def books(n):
    """an array to split: every sixth book with 60 buyers, the rest 5."""
    return [{'_id': i, 'title': 'b%d' % i,
             'buyers': [{'c': i * 100 + k} for k in range(60 if i % 6 == 0 else 5)]}
            for i in range(n)]


RUNS = [
    ('keys', people_keys(400), ['rewrite', '--path', 'daily', '--keys-to-array']),
    ('convert', prices(1500), ['rewrite', '--path', 'price', '--convert-to', 'double']),
    ('extract', articles(300), ['rewrite', '--path', 'body', '--extract', '--min-bytes', '1000',
                                '--excerpt-chars', '10']),
    ('gridfs', scans(300), ['rewrite', '--path', 'scan', '--gridfs', '--min-bytes', '1000']),
    ('attributes', catalogue(600),
     ['rewrite', '--attributes', '--fields', ','.join('attr_%02d' % j for j in range(30))]),
    ('split', books(300), ['split', '--field', 'buyers', '--keep', '10', '--page-size', '20']),
]
# Rounds of 3 back to back: a kill lands in a round's writes often enough, which leaves entries
# pending (the hardest resume); up to 150 tries for one, the kill's moment random within the
# time a whole run takes here.
PACED = ['--batch', '3']


def save(collection, path):
    with open(path, 'wb') as f:
        for doc in collection.find({}, sort=[('$natural', 1)]):
            f.write(doc.raw)


def journal_state(db, name):
    """The run's state in its journal (the document whose _id is "run:..."), and how many
    entries it left pending (journaled, their writes not known to have landed)."""
    state, pending = None, 0
    for journal in (name + '_outlier_rewrites', name + '_outlier_migrations'):
        for doc in db[journal].find({}):
            if isinstance(doc.get('_id'), str) and doc['_id'].startswith('run:'):
                state = doc.get('state')
            elif doc.get('state') == 'pending':
                pending += 1
    return state, pending


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--cli', required=True)
    parser.add_argument('--uri', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--commit', required=True, help='the commit OLD_CLI was built from')
    args = parser.parse_args()
    build = subprocess.run([args.cli, '--version'], capture_output=True, text=True).stdout.strip()
    client = pymongo.MongoClient(args.uri, document_class=RawBSONDocument)
    random.seed(55)
    for name, docs, run in RUNS:
        target = ['--uri', args.uri, '--db', DB, '--collection', name]
        cmd = [args.cli] + run[:1] + target + run[1:] + ['--yes'] + PACED

        def fresh():
            client.drop_database(DB)
            client[DB][name].insert_many([RawBSONDocument(bson.encode(d)) for d in docs])
            return client[DB]

        fresh()
        began = time.monotonic()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        whole = time.monotonic() - began
        for attempt in range(150):
            db = fresh()
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(whole * (0.2 + random.random() * 0.75))
            p.send_signal(signal.SIGKILL)
            p.wait()
            state, pending = journal_state(db, name)
            if state == 'applying' and pending > 0:
                break
        else:
            sys.exit('%s: no run interrupted with entries pending after 150 attempts' % name)
        out = os.path.join(args.out, name)
        os.makedirs(out, exist_ok=True)
        for f in os.listdir(out):
            os.remove(os.path.join(out, f))
        original = client['oe_journal_original'][name]
        client.drop_database('oe_journal_original')
        original.insert_many([RawBSONDocument(bson.encode(d)) for d in docs])
        save(original, os.path.join(out, 'original.bson'))
        collections = sorted(db.list_collection_names())
        for c in collections:
            save(db[c], os.path.join(out, c + '.bson'))
        indexes = {}
        for c in collections:
            specs = []
            for index in pymongo.MongoClient(args.uri)[DB][c].list_indexes():
                if index['name'] == '_id_':
                    continue
                # The key as [name, direction] pairs: its order is the index's.
                spec = {'key': [[k, v] for k, v in index['key'].items()], 'name': index['name']}
                if index.get('unique'):
                    spec['unique'] = True
                specs.append(spec)
            if specs:
                indexes[c] = specs
        manifest = {
            'run': run,
            'collection': name,
            'collections': collections,
            'indexes': indexes,
            'state': state,
            'pending': pending,
            'written_by': '%s at %s' % (build, args.commit),
            'written_on': datetime.date.today().isoformat(),
        }
        with open(os.path.join(out, 'manifest.json'), 'w') as f:
            json.dump(manifest, f, indent=2)
            f.write('\n')
        print('%s: %s, %d entries pending, after attempt %d; %s'
              % (name, state, pending, attempt + 1, ', '.join(collections)))
    client.drop_database(DB)
    client.drop_database('oe_journal_original')


if __name__ == '__main__':
    main()
