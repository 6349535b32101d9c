// Runs a generated mongosh snippet under Node (mongosh itself is not installed here) with a
// stand-in for mongosh's `db` that records every call: the collection's name and every key of
// the call's arguments, at any depth. The stand-in holds document "A" with one element in the
// array (at the path ARRAY, a JSON list of its parts), flagged by FLAG, and one page holding
// two elements in ITEMS. Prints JSON: { calls: [{ collection, op, keys }], read: [n...] }.
// Usage: node harness-mongosh.js SNIPPET '{"path": [...], "flag": F, "count": C, "items": I}'
'use strict';
const fs = require('fs');
const vm = require('vm');

const [snippetPath, config] = process.argv.slice(2);
const names = JSON.parse(config);
const calls = [];

function keysOf(value) {
  if (value === null || typeof value !== 'object') return [];
  return Object.keys(value).flatMap((k) => [k, ...keysOf(value[k])]);
}

const doc = { _id: 'A', [names.flag]: true };
let at = doc;
names.path.forEach((part, i) => {
  at[part] = i + 1 < names.path.length ? {} : [{ n: 1 }];
  at = at[part];
});
const page = { [names.items]: [{ n: 2 }, { n: 3 }] };

function collection(name) {
  const record = (op, args) => calls.push({ collection: name, op, keys: args.flatMap(keysOf) });
  return {
    createIndex: (...args) => record('createIndex', args),
    findOne: (...args) => { record('findOne', args); return doc; },
    updateOne: (...args) => { record('updateOne', args); return { matchedCount: 0 }; },
    // The write path's first round trip: A is flagged, so the element takes an overflow slot.
    findOneAndUpdate: (...args) => {
      record('findOneAndUpdate', args);
      return { [names.flag]: true, [names.count]: 2 };
    },
    find: (...args) => {
      record('find', args);
      const cursor = {
        sort: () => cursor, limit: () => cursor, toArray: () => [], forEach: (f) => [page].forEach(f),
      };
      return cursor;
    },
  };
}

const context = vm.createContext({ db: { getCollection: collection } });
vm.runInContext(fs.readFileSync(snippetPath, 'utf8'), context, { filename: snippetPath });
const functions = Object.keys(context).filter((k) => typeof context[k] === 'function');
const read = functions.find((k) => k.startsWith('read'));
const append = functions.find((k) => k.startsWith('append'));
const items = context[read]('A');
context[append]('A', { n: 4 });
console.log(JSON.stringify({ calls, read: items.map((i) => i.n) }));
