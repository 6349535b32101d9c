// Runs a generated Node.js snippet against a server: commands on standard input, one per line
// ("index", "append ID N", "read ID FROM COUNT", "all ID"); each read prints "ID: n,n,…".
// Usage: node harness.js SNIPPET.js URI DB NAME
'use strict';
const { MongoClient } = require('mongodb');
const readline = require('readline');

async function main() {
  const [snippetPath, uri, dbName, name] = process.argv.slice(2);
  const snippet = require(snippetPath);
  const client = new MongoClient(uri);
  const db = client.db(dbName);
  try {
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
      const [op, id, a, b] = line.trim().split(/\s+/);
      if (op === 'index') await snippet.createOverflowIndex(db);
      else if (op === 'append') await snippet['append' + name](db, id, { n: Number(a) });
      else if (op === 'read' || op === 'all') {
        const items = op === 'all' ? await snippet['readAll' + name](db, id)
                                   : await snippet['read' + name](db, id, Number(a), Number(b));
        console.log(`${id}: ${items.map((i) => i.n).join(',')}`);
      } else if (op) throw new Error(`unknown command: ${line}`);
    }
  } finally {
    await client.close();
  }
}

main().catch((e) => { console.error(e.message); process.exit(1); });
