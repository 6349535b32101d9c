// The collections tst_servertally counts, reshaped after their import (each a command on the
// database): gaps in the record ids, fields named as the tallies' own, arrays of several element
// types, objects in arrays' elements, fields of arrays' objects of one type and of two, versions
// of another name.
#include "TallyReshapes.h"

#include "LiveDocuments.h"

namespace fixtures {

QString reshapeTallyCollections(const QString &uri, const QString &database)
{
    const char *const commands[] = {
        // Every third book gone: the record ids have gaps, so the server counts positions.
        "{\"delete\": \"books_gaps\", \"deletes\": [{\"q\": {\"_id\": "
        "{\"$mod\": [3, 0]}}, \"limit\": 0}]}",
        "{\"delete\": \"flat_gaps\", \"deletes\": [{\"q\": {\"_id\": "
        "{\"$mod\": [7, 0]}}, \"limit\": 0}]}",
        "{\"delete\": \"feeds_gaps\", \"deletes\": [{\"q\": {\"$expr\": {\"$eq\": "
        "[{\"$mod\": [{\"$bsonSize\": \"$$ROOT\"}, 3]}, 0]}}, \"limit\": 0}]}",
        // Top-level fields named as the tallies' own figures (s, a, r, x<i>): the tallies then
        // evaluate the shape's figures on the document as it is, not on the fields they keep.
        "{\"update\": \"flat_named\", \"updates\": [{\"q\": {}, \"u\": "
        "{\"$rename\": {\"amount\": \"s\", \"blob\": \"a\", \"name\": "
        "\"x4\", \"ref\": \"r\"}}, \"multi\": true}]}",
        // Types the discovery's 200 of 4,000 documents most likely miss (beside the four
        // amounts that are strings and the three profiles that are): a note that is a string,
        // a name that is an integer; the tallies see them and those documents are read whole.
        "{\"update\": \"flat\", \"updates\": ["
        "{\"q\": {\"_id\": 777}, \"u\": {\"$set\": {\"note\": \"n\"}}},"
        "{\"q\": {\"_id\": 2222}, \"u\": {\"$set\": {\"name\": 5}}}]}",
        // Arrays of two and three element types: the tallies count each type's elements.
        "{\"update\": \"flat_mixed\", \"updates\": ["
        "{\"q\": {\"_id\": {\"$mod\": [9, 0]}}, \"u\": "
        "[{\"$set\": {\"codes\": {\"$concatArrays\": [\"$codes\", "
        "[\"x\"]]}}}], \"multi\": true},"
        "{\"q\": {\"_id\": {\"$mod\": [31, 0]}}, \"u\": "
        "{\"$set\": {\"codes\": [2.5, 1, \"y\", \"z\"]}}, "
        "\"multi\": true}]}",
        // Objects in the feeds' activities (the tallies do not count those).
        "{\"update\": \"feeds_nested\", \"updates\": [{\"q\": {}, "
        "\"u\": {\"$set\": {\"activities.$[e].meta\": {\"src\": "
        "\"app\"}}}, \"arrayFilters\": [{\"e.type\": \"post\"}], "
        "\"multi\": true}]}",
        // Comments with a field some hold (likes, an int or a string) and posts without any.
        "{\"update\": \"posts_mixed\", \"updates\": ["
        "{\"q\": {\"comment_count\": {\"$mod\": [5, 0]}}, \"u\": [{\"$set\": "
        "{\"comments\": {\"$map\": {\"input\": \"$comments\", \"in\": {\"$cond\": "
        "[{\"$eq\": [{\"$mod\": [{\"$strLenBytes\": \"$$this.text\"}, 3]}, 0]}, "
        "{\"$mergeObjects\": [\"$$this\", {\"likes\": 5}]}, \"$$this\"]}}}}}], "
        "\"multi\": true},"
        "{\"q\": {\"comment_count\": {\"$mod\": [7, 0]}}, \"u\": [{\"$set\": "
        "{\"comments\": {\"$map\": {\"input\": \"$comments\", \"in\": {\"$cond\": "
        "[{\"$eq\": [{\"$mod\": [{\"$strLenBytes\": \"$$this.author\"}, 2]}, 0]}, "
        "{\"$mergeObjects\": [\"$$this\", {\"likes\": \"many\"}]}, \"$$this\"]}}}}}], "
        "\"multi\": true},"
        "{\"q\": {\"comment_count\": {\"$mod\": [11, 0]}}, \"u\": {\"$set\": "
        "{\"comments\": []}}, \"multi\": true},"
        // Fields of one type the tallies gather ("$comments.sig"): binaries of two
        // sizes, a string of multi-byte characters, arrays of strings (not in the
        // post of 120,000 comments: it would pass 16 MiB).
        "{\"q\": {\"comment_count\": {\"$mod\": [3, 0], \"$lt\": 100000}}, "
        "\"u\": [{\"$set\": "
        "{\"comments\": {\"$map\": {\"input\": \"$comments\", \"in\": "
        "{\"$mergeObjects\": [\"$$this\", {\"sig\": {\"$cond\": [{\"$eq\": "
        "[{\"$mod\": [{\"$strLenBytes\": \"$$this.text\"}, 2]}, 0]}, {\"$literal\": "
        "{\"$binary\": {\"base64\": \"AAEC\", \"subType\": \"00\"}}}, "
        "{\"$literal\": {\"$binary\": {\"base64\": \"AAECAwQFBgc=\", \"subType\": "
        "\"00\"}}}]}, \"mood\": \"h\u00e9llo \u2713\", \"topics\": [\"\u00e4\", "
        "\"bb\"]}]}}}}}], \"multi\": true}]}",
        // A version field of another name (--version-field rev), its values of every type a
        // version has and one it has not: a long 1 or 2 or 3, a string, an integral double (one
        // version with 1), a fractional one, an object.
        "{\"update\": \"profiles_mixed\", \"updates\": ["
        "{\"q\": {}, \"u\": {\"$rename\": {\"schema_version\": \"rev\"}}, "
        "\"multi\": true},"
        "{\"q\": {\"_id\": {\"$mod\": [7, 0]}, \"rev\": {\"$exists\": true}}, "
        "\"u\": [{\"$set\": {\"rev\": {\"$toLong\": \"$rev\"}}}], \"multi\": true},"
        "{\"q\": {\"_id\": {\"$mod\": [11, 0]}, \"rev\": 2}, "
        "\"u\": {\"$set\": {\"rev\": \"v2\"}}, \"multi\": true},"
        "{\"q\": {\"_id\": {\"$mod\": [13, 0]}, \"rev\": 1}, "
        "\"u\": {\"$set\": {\"rev\": 1.0}}, \"multi\": true},"
        "{\"q\": {\"_id\": {\"$mod\": [17, 0]}, \"rev\": 1}, "
        "\"u\": {\"$set\": {\"rev\": 1.5}}, \"multi\": true},"
        "{\"q\": {\"_id\": {\"$mod\": [19, 0]}, \"rev\": 1}, "
        "\"u\": {\"$set\": {\"rev\": {\"major\": 1}}}, \"multi\": true}]}",
    };
    for (const char *json : commands) {
        QString error;
        if (!command(uri, database, QByteArray(json), &error))
            return error;
    }
    return {};
}

} // namespace fixtures
