// libFuzzer target: the offline split (OfflineSplitter: split, verify, rollback of a .bson dump).
// Input: one configuration byte, then the dump's bytes. The byte picks the array field (the
// demo datasets' arrays, or a nested path), keep, the page size and whether count/pages fields
// are written (see configFor).
//
// Oracles, besides the sanitizers:
// - split succeeds: it wrote its files, verify of its output reports no mismatch, and rollback
//   of its output succeeds and gives back the input's documents byte for byte (the input file
//   itself, unless it is gzip-compressed);
// - split fails: it says why, and the output directory holds no file (nothing half-written).

#include "FuzzSupport.h"

#include "migration/OfflineSplitter.h"
#include "source/DumpFileSource.h"

#include <QSet>

#include <bson/bson.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace {

oe::SplitConfig configFor(std::uint8_t selector)
{
    static const char *const fields[] = {"customers_purchased", "activities", "comments",
                                         "profile.history"};
    static const std::int64_t keeps[] = {0, 1, 2, 3, 5, 8, 13, 50};
    static const std::int64_t pageSizes[] = {1, 2, 7, 1000};
    oe::SplitConfig config;
    config.collection = QStringLiteral("fuzz");
    config.field = QString::fromLatin1(fields[selector & 3]);
    config.keep = keeps[(selector >> 2) & 7];
    config.pageSize = pageSizes[(selector >> 5) & 3];
    if (selector & 0x80) { // the activity feeds' count field is replaced in place
        config.countField = QStringLiteral("activityCount");
        config.pagesField = QStringLiteral("overflowPages");
    }
    config = config.withDefaults();
    if (const QStringList problems = config.problems(); !problems.isEmpty())
        oefuzz::finding("the harness made an invalid configuration",
                        problems.join(QStringLiteral("; ")));
    return config;
}

// The call under test, alone so that a change of its signature is a one-line change here.
bool split(const QString &dump, const QString &outDir, const oe::SplitConfig &config,
           oe::SplitPlan *plan, QStringList *written, oe::SourceError *error)
{
    return oe::OfflineSplitter::split(dump, outDir, config, plan, written, error);
}

// The documents of `path` as the reader frames them, concatenated (the decompressed stream
// for a .bson.gz); false if the reader reports a fault.
bool documentsOf(const QString &path, QByteArray *out, std::uint64_t *count)
{
    oe::DumpFileSource source(path);
    oe::SourceError error;
    if (!source.open(&error))
        return false;
    oe::DocumentBatch batch;
    for (;;) {
        const auto result = source.read(batch, 1u << 20, &error);
        if (result == oe::DocumentSource::ReadResult::Error)
            return false;
        if (result == oe::DocumentSource::ReadResult::End)
            return true;
        for (const auto &doc : batch.documents) {
            out->append(reinterpret_cast<const char *>(batch.data(doc)), qsizetype(doc.length));
            ++*count;
        }
    }
}

// Whether every embedded document and array ends with its NUL byte: libbson (1.23) checks
// that of the outer document only, and neither bson_validate nor iteration notices a bad one.
bool nestedEndsOk(const std::uint8_t *data, std::uint32_t length, int depth)
{
    bson_t doc;
    bson_iter_t it;
    if (depth > 200 || !bson_init_static(&doc, data, length) || !bson_iter_init(&it, &doc))
        return true; // not this fault
    while (bson_iter_next(&it)) {
        const std::uint8_t *child = nullptr;
        std::uint32_t childLength = 0;
        if (BSON_ITER_HOLDS_DOCUMENT(&it))
            bson_iter_document(&it, &childLength, &child);
        else if (BSON_ITER_HOLDS_ARRAY(&it))
            bson_iter_array(&it, &childLength, &child);
        if (child && childLength >= 5 &&
            (child[childLength - 1] != 0 || !nestedEndsOk(child, childLength, depth + 1)))
            return false;
    }
    return true;
}

// What is unusual about the input's documents, to tell findings apart: documents libbson does
// not accept, embedded documents or arrays without their final NUL, arrays at `field` whose
// keys are not "0", "1", ... (BSON says they must be; a split renumbers them). Empty or " (...)".
QString inputNote(const QByteArray &dump, const QString &field)
{
    const QByteArray path = field.toUtf8();
    QStringList notes;
    QSet<QByteArray> ids;
    auto note = [&](const QString &text) {
        if (!notes.contains(text))
            notes << text;
    };
    for (qsizetype at = 0; at + 4 <= dump.size();) {
        std::uint32_t length = 0;
        std::memcpy(&length, dump.constData() + at, 4);
        length = BSON_UINT32_FROM_LE(length);
        const auto *data = reinterpret_cast<const std::uint8_t *>(dump.constData() + at);
        bson_t doc;
        bson_iter_t it, array, element;
        if (length < 5 || qsizetype(length) > dump.size() - at ||
            !bson_init_static(&doc, data, length)) {
            note(QStringLiteral("a document libbson cannot open"));
            break;
        }
        at += qsizetype(length);
        if (!bson_validate(&doc, BSON_VALIDATE_NONE, nullptr))
            note(QStringLiteral("a document bson_validate refuses"));
        if (!nestedEndsOk(data, length, 0))
            note(QStringLiteral("an embedded document or array does not end with a NUL byte"));
        if (!bson_iter_init_find(&it, &doc, "_id")) {
            note(QStringLiteral("a document without _id"));
        } else {
            // The _id's type byte and value bytes (libbson's iterator offsets).
            QByteArray id(1, char(it.raw[it.type]));
            id.append(reinterpret_cast<const char *>(it.raw + it.d1),
                      qsizetype(it.next_off - it.d1));
            if (ids.contains(id))
                note(QStringLiteral("two documents with the same _id"));
            ids.insert(id);
        }
        if (!bson_iter_init(&it, &doc) ||
            !bson_iter_find_descendant(&it, path.constData(), &array) ||
            !BSON_ITER_HOLDS_ARRAY(&array) || !bson_iter_recurse(&array, &element))
            continue;
        for (std::uint64_t n = 0; bson_iter_next(&element); ++n)
            if (std::to_string(n) != bson_iter_key(&element))
                note(QStringLiteral("the array's keys are not 0, 1, ..."));
    }
    return notes.isEmpty()
               ? QString()
               : QStringLiteral(" (") + notes.join(QStringLiteral("; ")) + QLatin1Char(')');
}

QString listed(const QStringList &list)
{
    return list.join(QStringLiteral(", "));
}

void checkSplit(const std::uint8_t *data, std::size_t size, const QString &input,
                const QString &outDir, const QString &rollbackDir, const oe::SplitConfig &config)
{
    oe::SplitPlan plan;
    QStringList written;
    oe::SourceError error;
    if (!split(input, outDir, config, &plan, &written, &error)) {
        if (!error.isError())
            oefuzz::finding("split failed without saying why");
        if (const QStringList left = oefuzz::entriesOf(outDir); !left.isEmpty())
            oefuzz::finding("split failed but left files behind",
                            listed(left) + QStringLiteral(" (error: ") + error.toString() +
                                QLatin1Char(')'));
        return;
    }
    if (error.isError())
        oefuzz::finding("split succeeded but reported an error", error.toString());
    for (const QString &file : written)
        if (!QFileInfo::exists(file))
            oefuzz::finding("split reported a file it did not write", file);
    QByteArray original;
    std::uint64_t documents = 0;
    if (!documentsOf(input, &original, &documents))
        oefuzz::finding("split succeeded on a dump the reader rejects");
    if (!oefuzz::isGzip(data, size) &&
        original != QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size)))
        oefuzz::finding("the reader's documents are not the file's bytes");
    if (plan.documents != documents)
        oefuzz::finding("the plan counted another number of documents",
                        QStringLiteral("%1 vs %2").arg(plan.documents).arg(documents));

    const QString splitDump = QDir(outDir).filePath(config.collection + QStringLiteral(".bson"));
    oe::VerifyReport verified;
    if (!oe::OfflineSplitter::verify(splitDump, config, &verified, &error))
        oefuzz::finding("verify of the split's own output failed",
                        error.toString() + inputNote(original, config.field));
    if (!verified.ok())
        oefuzz::finding("verify of the split's own output found mismatches",
                        verified.details.join(QStringLiteral("; ")) +
                            inputNote(original, config.field));
    if (verified.checked != plan.affected)
        oefuzz::finding("verify checked another number of documents than the split split",
                        QStringLiteral("%1 vs %2").arg(verified.checked).arg(plan.affected));

    oe::VerifyReport rolledBack;
    QStringList restored;
    if (!oe::OfflineSplitter::rollback(splitDump, rollbackDir, config, &rolledBack, &restored,
                                       &error))
        oefuzz::finding("rollback of the split's own output failed",
                        error.toString() + QStringLiteral("; ") +
                            rolledBack.details.join(QStringLiteral("; ")) +
                            inputNote(original, config.field));
    const QByteArray back =
        oefuzz::readFile(QDir(rollbackDir).filePath(config.collection + QStringLiteral(".bson")));
    if (back != original) {
        qsizetype at = 0;
        while (at < back.size() && at < original.size() && back[at] == original[at])
            ++at;
        oefuzz::finding("the rollback of the split is not the original dump",
                        QStringLiteral("%1 bytes back, %2 originally, first difference at byte "
                                       "%3%4")
                            .arg(back.size())
                            .arg(original.size())
                            .arg(at)
                            .arg(inputNote(original, config.field)));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 1)
        return 0;
    const oe::SplitConfig config = configFor(data[0]);
    ++data;
    --size;
    const QString inDir = oefuzz::scratchPath(QStringLiteral("in"));
    const QString outDir = oefuzz::scratchPath(QStringLiteral("out"));
    const QString rollbackDir = oefuzz::scratchPath(QStringLiteral("rollback"));
    QDir().mkpath(inDir);
    const QString input = QDir(inDir).filePath(config.collection + QStringLiteral(".bson"));
    oefuzz::writeFile(input, data, size);
    try {
        checkSplit(data, size, input, outDir, rollbackDir, config);
    } catch (const oefuzz::KnownFinding &) {
    }
    for (const QString &dir : {inDir, outDir, rollbackDir})
        oefuzz::removeTree(dir);
    return 0;
}
