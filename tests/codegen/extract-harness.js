// Runs a generated Node.js extract snippet (`codegen --extract --path post.body`) against a
// server: commands on standard input, one per line ("read ID", "write ID TEXT", "writebin ID
// N": N bytes i % 251, "writedoc ID": {title: "T", text: "long", lang: "ru"}); each read prints
// "ID: <post.body of the document read> <+ if the flag is still in it, else ->", or "ID: none".
// Usage: node extract-harness.js SNIPPET.js URI DB
'use strict';
const { MongoClient } = require('mongodb');
const readline = require('readline');

async function main() {
  const [snippetPath, uri, dbName] = process.argv.slice(2);
  const snippet = require(snippetPath);
  const client = new MongoClient(uri);
  const db = client.db(dbName);
  try {
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
      const [op, id, text] = line.trim().split(/\s+/);
      if (op === 'read') {
        const doc = await snippet.readPostBody(db, id);
        console.log(doc === null ? `${id}: none`
          : `${id}: ${doc.post.body} ${'has_full_post_body' in doc ? '+' : '-'}`);
      } else if (op === 'write') await snippet.writePostBody(db, id, text);
      else if (op === 'writebin') {
        await snippet.writePostBody(db, id, Buffer.from(Array.from({ length: Number(text) }, (_, i) => i % 251)));
      } else if (op === 'writedoc') {
        await snippet.writePostBody(db, id, { title: 'T', text: 'long', lang: 'ru' });
      }
      else if (op) throw new Error(`unknown command: ${line}`);
    }
  } finally {
    await client.close();
  }
}

main().catch((e) => { console.error(e.message); process.exit(1); });
