#include "codegen/AttributeTemplates.h"

namespace oe {

namespace {

constexpr const char *kPython =
    R"(# Attribute pattern, as Outlier Explorer rewrote it: the sparse fields of the collection
# {{collection}} live in its array {{array}}, one {{{key}}: name, {{value}}: value} a field,
# indexed {{{arrayKey}}: 1, {{arrayValue}}: 1}.
# Python with PyMongo: pip install pymongo
ARRAY = {{array}}
KEY = {{key}}
VALUE = {{value}}


def attributes_{{name_}}(doc):
    """A document's attributes as a dict, in the array's order ({} when it has none)."""
    return {e[KEY]: e[VALUE] for e in doc.get(ARRAY) or []
            if isinstance(e, dict) and KEY in e and VALUE in e}


def read_{{name_}}(db, doc_id):
    """Read path: the document with its attributes as top-level fields again (after its
    other fields) and without the array, as the application read it before. None if there is
    no such document."""
    doc = db[{{collection}}].find_one({"_id": doc_id})
    if doc is None:
        return None
    attributes = attributes_{{name_}}(doc)
    doc.pop(ARRAY, None)
    doc.update(attributes)
    return doc


def find_by_{{name_}}(db, name, value):
    """The documents whose attribute `name` holds `value`, served by the index."""
    return db[{{collection}}].find({ARRAY: {"$elemMatch": {KEY: name, VALUE: value}}})


def set_{{name_}}(db, doc_id, name, value):
    """Write path: the attribute `name` of the document set to `value`, in its place when it
    has it, else added last. Two writers adding the same name never add it twice (the push
    is guarded). KeyError if there is no such document."""
    for _ in range(2):
        done = db[{{collection}}].update_one(
            {"_id": doc_id, ARRAY + "." + KEY: name}, {"$set": {ARRAY + ".$." + VALUE: value}})
        if done.matched_count:
            return
        done = db[{{collection}}].update_one(
            {"_id": doc_id, ARRAY + "." + KEY: {"$ne": name}},
            {"$push": {ARRAY: {KEY: name, VALUE: value}}})
        if done.matched_count:
            return
        if db[{{collection}}].count_documents({"_id": doc_id}, limit=1) == 0:
            raise KeyError("set_{{name_}}: no such document")
    raise RuntimeError("set_{{name_}}: the attribute kept changing; try again")


def unset_{{name_}}(db, doc_id, name):
    """The attribute `name` taken out of the document (nothing when it has none)."""
    db[{{collection}}].update_one({"_id": doc_id}, {"$pull": {ARRAY: {KEY: name}}})
)";

constexpr const char *kJavaScript =
    R"(// Attribute pattern, as Outlier Explorer rewrote it: the sparse fields of the collection
// {{collection}} live in its array {{array}}, one {{{key}}: name, {{value}}: value} a field,
// indexed {{{arrayKey}}: 1, {{arrayValue}}: 1}.
// Node.js with the official driver: npm install mongodb
'use strict';

const ARRAY = {{array}};
const KEY = {{key}};
const VALUE = {{value}};
const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// A document's attributes as a Map, in the array's order (empty when it has none).
function attributes{{Name}}(doc) {
  const out = new Map();
  const list = own(doc, ARRAY) && Array.isArray(doc[ARRAY]) ? doc[ARRAY] : [];
  for (const e of list) {
    if (e !== null && typeof e === 'object' && own(e, KEY) && own(e, VALUE)) out.set(e[KEY], e[VALUE]);
  }
  return out;
}

// Read path: the document with its attributes as top-level fields again (after its other
// fields) and without the array, as the application read it before. null if there is no such
// document.
async function read{{Name}}(db, id) {
  const doc = await db.collection({{collection}}).findOne({ _id: id });
  if (doc === null) return null;
  const attributes = attributes{{Name}}(doc);
  delete doc[ARRAY];
  for (const [name, value] of attributes) {
    Object.defineProperty(doc, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return doc;
}

// The documents whose attribute `name` holds `value`, served by the index (a cursor).
function findBy{{Name}}(db, name, value) {
  return db.collection({{collection}}).find({ [ARRAY]: { $elemMatch: { [KEY]: name, [VALUE]: value } } });
}

// Write path: the attribute `name` of the document set to `value`, in its place when it has
// it, else added last. Two writers adding the same name never add it twice (the push is
// guarded). Throws if there is no such document.
async function set{{Name}}(db, id, name, value) {
  const collection = db.collection({{collection}});
  for (let round = 0; round < 2; ++round) {
    let done = await collection.updateOne({ _id: id, [ARRAY + '.' + KEY]: name },
                                          { $set: { [ARRAY + '.$.' + VALUE]: value } });
    if (done.matchedCount) return;
    done = await collection.updateOne({ _id: id, [ARRAY + '.' + KEY]: { $ne: name } },
                                      { $push: { [ARRAY]: { [KEY]: name, [VALUE]: value } } });
    if (done.matchedCount) return;
    if ((await collection.countDocuments({ _id: id }, { limit: 1 })) === 0) {
      throw new Error('set{{Name}}: no such document');
    }
  }
  throw new Error('set{{Name}}: the attribute kept changing; try again');
}

// The attribute `name` taken out of the document (nothing when it has none).
async function unset{{Name}}(db, id, name) {
  await db.collection({{collection}}).updateOne({ _id: id }, { $pull: { [ARRAY]: { [KEY]: name } } });
}

module.exports = { attributes{{Name}}, read{{Name}}, findBy{{Name}}, set{{Name}}, unset{{Name}} };
)";

constexpr const char *kMongosh =
    R"(// Attribute pattern, as Outlier Explorer rewrote it: the sparse fields of the collection
// {{collection}} live in its array {{array}}, one {{{key}}: name, {{value}}: value} a field,
// indexed {{{arrayKey}}: 1, {{arrayValue}}: 1}. For mongosh (load() it).

// Read path: the document with its attributes as top-level fields again, without the array.
function read{{Name}}(id) {
  const doc = db.getCollection({{collection}}).findOne({ _id: id });
  if (doc === null) return null;
  const list = Array.isArray(doc[{{array}}]) ? doc[{{array}}] : [];
  delete doc[{{array}}];
  for (const e of list) {
    Object.defineProperty(doc, e[{{key}}], { value: e[{{value}}], enumerable: true, writable: true,
                                             configurable: true });
  }
  return doc;
}

// The documents whose attribute `name` holds `value`, served by the index.
function findBy{{Name}}(name, value) {
  return db.getCollection({{collection}}).find(
    { [{{array}}]: { $elemMatch: { [{{key}}]: name, [{{value}}]: value } } });
}
)";

} // namespace

const char *AttributeTemplates::text(CodeLanguage language)
{
    switch (language) {
    case CodeLanguage::Python:
        return kPython;
    case CodeLanguage::JavaScript:
        return kJavaScript;
    case CodeLanguage::Mongosh:
        return kMongosh;
    case CodeLanguage::Java:
    case CodeLanguage::C:
    case CodeLanguage::Go:
        break;
    }
    return "";
}

} // namespace oe
