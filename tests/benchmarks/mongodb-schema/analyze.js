#!/usr/bin/env node
// Baseline for run-analyze-benchmark.sh: MongoDB Compass's schema analyzer (mongodb-schema)
// fed every document of a mongodump-style .bson file.
//
// The file is streamed, never loaded whole: it is read in fixed-size chunks, documents are
// framed by their little-endian int32 length prefix, each is decoded with the npm `bson`
// package (BSON.deserialize, the driver's default promotion of values) and handed to
// mongodb-schema's analyzer through its public parseSchema() API, which consumes an async
// iterable document by document — the way Compass feeds it a cursor. Analyzer options are the
// library's defaults (values stored, no semantic types), as in Compass's schema tab.
//
// Usage: node analyze.js FILE.bson
// Prints (one "key: value" per line): documents, bytes, fields, seconds, peak_rss_kb.
// Exit status: 0 on success, 1 on a read or framing error, 2 on bad usage.
'use strict';

const fs = require('node:fs');
const { BSON } = require('bson');
const { parseSchema } = require('mongodb-schema');

const CHUNK_BYTES = 4 * 1024 * 1024;
const MIN_DOC_BYTES = 5; // int32 length + trailing NUL
const MAX_DOC_BYTES = 16 * 1024 * 1024 + 16 * 1024; // MongoDB's limit plus mongodump slack

const counters = { documents: 0, bytes: 0 };

// Yields the documents of the .bson file at `path` one at a time.
async function* readBsonDocuments(path) {
  const handle = await fs.promises.open(path, 'r');
  try {
    let pending = Buffer.alloc(0); // bytes read but not yet framed into a document
    let fileOffset = 0; // offset in the file of pending[0]
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      let buffer = pending.length === 0
        ? chunk.subarray(0, bytesRead)
        : Buffer.concat([pending, chunk.subarray(0, bytesRead)]);

      let offset = 0;
      while (buffer.length - offset >= 4) {
        const length = buffer.readInt32LE(offset);
        if (length < MIN_DOC_BYTES || length > MAX_DOC_BYTES) {
          throw new Error(`invalid document length ${length} at byte ${fileOffset + offset}`);
        }
        if (buffer.length - offset < length) break; // the rest arrives with the next chunk
        const doc = BSON.deserialize(buffer.subarray(offset, offset + length));
        offset += length;
        counters.documents += 1;
        counters.bytes += length;
        yield doc;
      }
      // Copy the partial tail so the large chunk it came from can be freed.
      pending = Buffer.from(buffer.subarray(offset));
      fileOffset += offset;
    }
    if (pending.length !== 0) {
      throw new Error(`truncated document: ${pending.length} trailing bytes at byte ${fileOffset}`);
    }
  } finally {
    await handle.close();
  }
}

async function main(argv) {
  if (argv.length !== 1) {
    process.stderr.write('usage: node analyze.js FILE.bson\n');
    return 2;
  }
  const path = argv[0];
  const start = process.hrtime.bigint();
  let schema;
  try {
    schema = await parseSchema(readBsonDocuments(path));
  } catch (err) {
    process.stderr.write(`analyze.js: ${path}: ${err.message}\n`);
    return 1;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;

  process.stdout.write(
    `documents: ${counters.documents}\n` +
    `bytes: ${counters.bytes}\n` +
    `schema_count: ${schema.count}\n` +
    `fields: ${schema.fields.length}\n` +
    `seconds: ${seconds.toFixed(3)}\n` +
    `peak_rss_kb: ${process.resourceUsage().maxRSS}\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
