#include "codegen/ExtractTemplates.h"

namespace oe {

namespace {

constexpr const char *kPython =
    R"(# Subset pattern, as Outlier Explorer extracted it: where a document of the collection
# {{collection}} holds {{flag}}: true, the whole value of {{path}} lives in the
# collection {{side}} (its field {{leaf}}, keyed by the document's _id), and the
# document keeps an excerpt of the same type in its place.
# Python with PyMongo: pip install pymongo
from bson.binary import Binary

EXCERPT_CHARS = {{excerptChars}}
EXCERPT_KEYS = [{{excerptKeys}}]
PATH = [{{pathParts}}]


def excerpt_{{name_}}(value):
    """The excerpt a document keeps: a string's first EXCERPT_CHARS characters, a
    sub-document's EXCERPT_KEYS (in its own order), an empty binary of the same subtype."""
    if isinstance(value, str):
        return value[:EXCERPT_CHARS]
    if isinstance(value, Binary):
        return Binary(b"", value.subtype)
    if isinstance(value, (bytes, bytearray)):
        return Binary(b"", 0)
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k in EXCERPT_KEYS}
    raise TypeError("excerpt_{{name_}}: a string, a binary or a sub-document is extracted, "
                    "not a " + type(value).__name__)


def read_{{name_}}(db, doc_id):
    """Read path: the document whole, as it was before the extraction: where it holds the
    flag, the value from the side collection back in its place and the flag gone. None if
    there is no such document."""
    doc = db[{{collection}}].find_one({"_id": doc_id})
    if doc is None or doc.get({{flag}}) is not True:
        return doc
    side = db[{{side}}].find_one({"_id": doc_id})
    if side is None or {{leaf}} not in side:
        raise LookupError("read_{{name_}}: the side collection lost the whole value of %r"
                          % (doc_id,))
    holder = doc
    for part in PATH[:-1]:
        holder = holder[part]
    holder[PATH[-1]] = side[{{leaf}}]
    del doc[{{flag}}]
    return doc


def write_{{name_}}(db, doc_id, value):
    """Write path: `value` whole into the side collection first, then its excerpt and the
    flag into the document, so a reader never finds the flag without the whole value. Of
    writers racing on one document, the last to write the side collection holds the whole
    value (read_{{name_}} returns it); the excerpt may be another's."""
    excerpt = excerpt_{{name_}}(value)
    db[{{side}}].replace_one({"_id": doc_id}, {"_id": doc_id, {{leaf}}: value}, upsert=True)
    done = db[{{collection}}].update_one(
        {"_id": doc_id}, {"$set": {{{path}}: excerpt, {{flag}}: True}})
    if done.matched_count == 0:
        db[{{side}}].delete_one({"_id": doc_id})
        raise KeyError("write_{{name_}}: no such document")
)";

constexpr const char *kJavaScript =
    R"(// Subset pattern, as Outlier Explorer extracted it: where a document of the collection
// {{collection}} holds {{flag}}: true, the whole value of {{path}} lives in the
// collection {{side}} (its field {{leaf}}, keyed by the document's _id), and the
// document keeps an excerpt of the same type in its place.
// Node.js with the official driver: npm install mongodb
'use strict';
const { Binary } = require('mongodb');

const EXCERPT_CHARS = {{excerptChars}};
const EXCERPT_KEYS = [{{excerptKeys}}];
const PATH = [{{pathParts}}];
const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// The excerpt a document keeps: a string's first EXCERPT_CHARS characters (code points), a
// sub-document's EXCERPT_KEYS (in its own order), an empty binary of the same subtype.
function excerpt{{Name}}(value) {
  if (typeof value === 'string') return Array.from(value).slice(0, EXCERPT_CHARS).join('');
  if (value instanceof Binary) return new Binary(Buffer.alloc(0), value.sub_type);
  if (value instanceof Uint8Array) return new Binary(Buffer.alloc(0), 0);
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !value._bsontype) {
    const out = {};
    for (const key of Object.keys(value)) if (EXCERPT_KEYS.includes(key)) out[key] = value[key];
    return out;
  }
  throw new TypeError('excerpt{{Name}}: a string, a binary or a sub-document is extracted');
}

// Read path: the document whole, as it was before the extraction: where it holds the flag,
// the value from the side collection back in its place and the flag gone. null if there is
// no such document.
async function read{{Name}}(db, id) {
  const doc = await db.collection({{collection}}).findOne({ _id: id });
  if (doc === null || doc[{{flag}}] !== true) return doc;
  const side = await db.collection({{side}}).findOne({ _id: id });
  if (side === null || !own(side, {{leaf}})) {
    throw new Error('read{{Name}}: the side collection lost the whole value of ' + String(id));
  }
  let holder = doc;
  for (const part of PATH.slice(0, -1)) holder = holder[part];
  holder[PATH[PATH.length - 1]] = side[{{leaf}}];
  delete doc[{{flag}}];
  return doc;
}

// Write path: `value` whole into the side collection first, then its excerpt and the flag
// into the document, so a reader never finds the flag without the whole value. Of writers
// racing on one document, the last to write the side collection holds the whole value
// (read{{Name}} returns it); the excerpt may be another's.
async function write{{Name}}(db, id, value) {
  const excerpt = excerpt{{Name}}(value);
  await db.collection({{side}}).replaceOne({ _id: id }, { _id: id, [{{leaf}}]: value },
                                           { upsert: true });
  const done = await db.collection({{collection}}).updateOne(
    { _id: id }, { $set: { [{{path}}]: excerpt, [{{flag}}]: true } });
  if (done.matchedCount === 0) {
    await db.collection({{side}}).deleteOne({ _id: id });
    throw new Error('write{{Name}}: no such document');
  }
}

module.exports = { excerpt{{Name}}, read{{Name}}, write{{Name}} };
)";

constexpr const char *kMongosh =
    R"(// Subset pattern, as Outlier Explorer extracted it: where a document of the collection
// {{collection}} holds {{flag}}: true, the whole value of {{path}} lives in the
// collection {{side}} (its field {{leaf}}, keyed by the document's _id), and the
// document keeps an excerpt of the same type in its place. For mongosh (load() it).

// Read path: the document whole, as it was before the extraction: the value back in its
// place from the side collection where the document holds the flag, and the flag gone.
function read{{Name}}(id) {
  const doc = db.getCollection({{collection}}).findOne({ _id: id });
  if (doc === null || doc[{{flag}}] !== true) return doc;
  const side = db.getCollection({{side}}).findOne({ _id: id });
  if (side === null || !Object.prototype.hasOwnProperty.call(side, {{leaf}})) {
    throw new Error('read{{Name}}: the side collection lost the whole value');
  }
  const path = [{{pathParts}}];
  let holder = doc;
  for (const part of path.slice(0, -1)) holder = holder[part];
  holder[path[path.length - 1]] = side[{{leaf}}];
  delete doc[{{flag}}];
  return doc;
}

// Write path: a string value whole into the side collection, then its first
// {{excerptChars}} characters and the flag into the document.
function write{{Name}}(id, text) {
  db.getCollection({{side}}).replaceOne({ _id: id }, { _id: id, [{{leaf}}]: text },
                                        { upsert: true });
  const excerpt = Array.from(text).slice(0, {{excerptChars}}).join('');
  const done = db.getCollection({{collection}}).updateOne(
    { _id: id }, { $set: { [{{path}}]: excerpt, [{{flag}}]: true } });
  if (done.matchedCount === 0) {
    db.getCollection({{side}}).deleteOne({ _id: id });
    throw new Error('write{{Name}}: no such document');
  }
}
)";

} // namespace

const char *ExtractTemplates::text(CodeLanguage language)
{
    switch (language) {
    case CodeLanguage::JavaScript:
        return kJavaScript;
    case CodeLanguage::Python:
        return kPython;
    case CodeLanguage::Java:
    case CodeLanguage::C:
    case CodeLanguage::Go:
        return compiled(language);
    case CodeLanguage::Mongosh:
        return kMongosh;
    }
    return "";
}

} // namespace oe
