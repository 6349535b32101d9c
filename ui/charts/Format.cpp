#include "charts/Format.h"

#include <QCoreApplication>

#include <QLocale>

#include <cmath>

namespace oe {

QString Format::count(std::uint64_t n)
{
    return QLocale().toString(qulonglong(n));
}

QString Format::bytes(std::uint64_t n)
{
    if (n < 1024)
        return QLocale().toString(qulonglong(n)) + QStringLiteral(" B");
    return QLocale().formattedDataSize(qint64(n), 1, QLocale::DataSizeIecFormat);
}

QString Format::percent(double share, int decimals)
{
    return QLocale().toString(share * 100.0, 'f', decimals) + QStringLiteral(" %");
}

QString Format::duration(double seconds)
{
    if (seconds < 10)
        return QLocale().toString(seconds, 'f', seconds < 1 ? 2 : 1) + QStringLiteral(" s");
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(int(std::lround(seconds)));
    const int total = int(std::lround(seconds));
    if (total < 3600)
        return QStringLiteral("%1 min %2 s").arg(total / 60).arg(total % 60);
    return QStringLiteral("%1 h %2 min").arg(total / 3600).arg((total % 3600) / 60);
}

QString Format::timeLimitNote(qint64 maxTimeMs, double seconds)
{
    if (maxTimeMs <= 0 || seconds * 1000.0 <= double(maxTimeMs))
        return {};
    return QCoreApplication::translate("Format", " The %1 server time limit applies to each server "
                                                 "operation (every batch), not to the whole scan.")
        .arg(duration(double(maxTimeMs) / 1000.0));
}

QString Format::analysisStatus(const AnalysisResult &result)
{
    const CollectionProfile &p = result.profile;
    const QString documents = QLocale().toString(qulonglong(p.documents));
    switch (p.status) {
    case CollectionProfile::Status::Complete:
        return QCoreApplication::translate("MainWindow", "Analysed %1 documents of %2 in %3.%4")
            .arg(documents, result.request.source.displayName(),
                 QLocale().toString(p.seconds, 'f', 2) + QStringLiteral(" s"),
                 timeLimitNote(result.request.maxTimeMs, p.seconds));
    case CollectionProfile::Status::Cancelled:
        return QCoreApplication::translate(
                   "MainWindow", "Cancelled after %1 documents: the charts show a partial result.")
            .arg(documents);
    case CollectionProfile::Status::Failed:
        return QCoreApplication::translate("MainWindow", "Stopped by an error after %1 documents.")
            .arg(documents);
    }
    return {};
}

QString Format::shortened(const QString &text, qsizetype limit)
{
    if (text.size() <= limit)
        return text;
    qsizetype cut = limit;
    if (cut > 0 && text.at(cut - 1).isHighSurrogate()) // never half a character
        --cut;
    return text.left(cut) +
           QStringLiteral("… (%1 characters)").arg(count(std::uint64_t(text.size())));
}

QString Format::fileNamePart(const QString &name)
{
    static const QString reserved = QStringLiteral("/\\:*?\"<>|");
    QString out;
    for (const QChar c : name.left(80))
        out += c.category() == QChar::Other_Control || c.category() == QChar::Other_Format ||
                       reserved.contains(c)
                   ? QLatin1Char('_')
                   : c;
    while (out.startsWith(QLatin1Char('.')))
        out[0] = QLatin1Char('_');
    return out.trimmed();
}

} // namespace oe
