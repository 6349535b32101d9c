// Writes tests/FlatShapes.cpp's collection of N documents as a dump (run-measure-benchmark.sh
// --dataset flat_shapes): small documents whose whole shape the tallies count in the cluster,
// with a planted rare field, mixed types, a rare array path and big strings.
//
//   bench_flat_shapes N FILE
#include "FlatShapes.h"

#include <QFile>

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv)
{
    if (argc != 3 || std::atoi(argv[1]) <= 0) {
        std::fprintf(stderr, "usage: %s N FILE\n", argv[0]);
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[2]);
    QFile out(path + QStringLiteral(".tmp"));
    if (!out.open(QIODevice::WriteOnly) ||
        out.write(fixtures::flatShapesDump(std::atoi(argv[1]))) < 0 || !out.flush()) {
        std::fprintf(stderr, "bench_flat_shapes: cannot write %s\n", argv[2]);
        return 1;
    }
    out.close();
    QFile::remove(path);
    if (!QFile::rename(path + QStringLiteral(".tmp"), path)) {
        std::fprintf(stderr, "bench_flat_shapes: cannot rename onto %s\n", argv[2]);
        return 1;
    }
    return 0;
}
