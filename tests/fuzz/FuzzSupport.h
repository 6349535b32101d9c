#pragma once

// Helpers shared by the libFuzzer targets: a scratch directory per process, files written and
// read back, gzip, and "finding" (print what broke, then abort, which libFuzzer reports as a
// crash and saves the input for).

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace oefuzz {

// Thrown instead of aborting for a finding named in OE_FUZZ_KNOWN (see finding()).
struct KnownFinding
{
};

// OE_FUZZ_KNOWN="text;text": a finding whose description contains one of these is a known bug;
// the input is dropped instead of ending the run, so a long run can look past it. Unset in CI.
[[noreturn]] inline void finding(const char *what, const QString &detail = {})
{
    const QString message =
        QString::fromUtf8(what) + (detail.isEmpty() ? QString() : QStringLiteral(": ") + detail);
    static const QStringList known =
        qEnvironmentVariable("OE_FUZZ_KNOWN").split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString &k : known)
        if (message.contains(k))
            throw KnownFinding{};
    std::fprintf(stderr, "\n==FINDING== %s\n", qPrintable(message));
    std::fflush(stderr);
    std::abort();
}

// One directory per fuzzing process under $TMPDIR (packaging/run-fuzz.sh points TMPDIR at its
// own work directory and removes it afterwards, also when a crash skips the destructor).
inline const QString &scratchDir()
{
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/oe-fuzz-XXXXXX"));
    static const QString path = dir.path();
    if (!dir.isValid())
        finding("cannot create a scratch directory", dir.errorString());
    return path;
}

inline QString scratchPath(const QString &name)
{
    return scratchDir() + QLatin1Char('/') + name;
}

inline void writeFile(const QString &path, const void *data, std::size_t size)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered) ||
        file.write(static_cast<const char *>(data), qint64(size)) != qint64(size))
        finding("cannot write a scratch file", path);
}

inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        finding("cannot read back a file", path);
    return file.readAll();
}

// Every entry of `dir` (files, sub-directories, hidden ones), or empty if it does not exist.
inline QStringList entriesOf(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                               QDir::NoDotAndDotDot);
}

inline void removeTree(const QString &path)
{
    if (QFileInfo(path).isDir())
        QDir(path).removeRecursively();
    else
        QFile::remove(path);
}

inline bool isGzip(const std::uint8_t *data, std::size_t size)
{
    return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

// The input gzip-compressed (one member, fast level), as a .bson.gz dump would be.
inline QByteArray gzipped(const std::uint8_t *data, std::size_t size)
{
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        finding("deflateInit2 failed");
    QByteArray out(qsizetype(deflateBound(&z, uLong(size))), Qt::Uninitialized);
    z.next_in = const_cast<Bytef *>(data);
    z.avail_in = uInt(size);
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    const int status = deflate(&z, Z_FINISH);
    out.resize(qsizetype(z.total_out));
    deflateEnd(&z);
    if (status != Z_STREAM_END)
        finding("deflate did not finish");
    return out;
}

} // namespace oefuzz
