#include "source/SourceError.h"

namespace oe {

QString SourceError::toString() const
{
    QString line;
    if (!source.isEmpty())
        line += source + QStringLiteral(": ");
    if (docIndex >= 0)
        line += QStringLiteral("document #%1").arg(docIndex);
    if (byteOffset >= 0)
        line += (docIndex >= 0 ? QStringLiteral(" at ") : QString()) +
                QStringLiteral("byte offset %1").arg(byteOffset);
    if (!fieldPath.isEmpty())
        line += QStringLiteral(" (field '%1')").arg(fieldPath);
    if (docIndex >= 0 || byteOffset >= 0 || !fieldPath.isEmpty())
        line += QStringLiteral(": ");
    line += message;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return line;
}

SourceError SourceError::io(const QString &source, const QString &message)
{
    SourceError e;
    e.kind = Kind::Io;
    e.source = source;
    e.message = message;
    return e;
}

SourceError SourceError::invalidData(const QString &source, const QString &message,
                                     std::int64_t docIndex, std::int64_t byteOffset)
{
    SourceError e;
    e.kind = Kind::InvalidData;
    e.source = source;
    e.message = message;
    e.docIndex = docIndex;
    e.byteOffset = byteOffset;
    return e;
}

} // namespace oe
