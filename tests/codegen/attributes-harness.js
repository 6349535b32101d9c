// Runs a generated Node.js attribute snippet (`codegen --attributes`) against a server: the
// commands of attributes-harness.py, the same output.
// Usage: node attributes-harness.js SNIPPET.js URI DB Name
'use strict';
const { MongoClient } = require('mongodb');
const readline = require('readline');

async function main() {
  const [snippetPath, uri, dbName, name] = process.argv.slice(2);
  const snippet = require(require('path').resolve(snippetPath));
  const client = new MongoClient(uri);
  await client.connect();
  const db = client.db(dbName);
  const text = (value) => JSON.stringify(value);
  try {
    const lines = readline.createInterface({ input: process.stdin });
    for await (const line of lines) {
      const w = line.split(' ');
      if (!w[0]) continue;
      const rest = w.slice(3).join(' ');
      if (w[0] === 'read') {
        const doc = await snippet['read' + name](db, Number(w[1]));
        if (doc === null) {
          console.log(w[1] + ': none');
        } else {
          const fields = Object.keys(doc).filter((k) => k !== '_id');
          console.log(w[1] + ': ' + fields.map((k) => k + '=' + text(doc[k])).join(' '));
        }
      } else if (w[0] === 'set') {
        await snippet['set' + name](db, Number(w[1]), w[2], JSON.parse(rest));
      } else if (w[0] === 'unset') {
        await snippet['unset' + name](db, Number(w[1]), w[2]);
      } else if (w[0] === 'find') {
        const found = await snippet['findBy' + name](db, w[1], JSON.parse(w.slice(2).join(' '))).toArray();
        console.log('find: ' + found.map((d) => d._id).sort((a, b) => a - b).join(' '));
      } else {
        throw new Error('unknown command: ' + line);
      }
    }
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
