#include "export/SafeSvg.h"

#include <QXmlStreamReader>
#include <QXmlStreamWriter>

namespace oe {

namespace {

bool allowedElement(QStringView name)
{
    static const QStringList refused{QStringLiteral("script"), QStringLiteral("foreignObject"),
                                     QStringLiteral("iframe"), QStringLiteral("object"),
                                     QStringLiteral("embed"),  QStringLiteral("a"),
                                     QStringLiteral("use")};
    return !refused.contains(name.toString(), Qt::CaseInsensitive);
}

bool allowedAttribute(QStringView name, QStringView value)
{
    if (name.startsWith(QLatin1String("on"), Qt::CaseInsensitive))
        return false; // event handlers
    if (name.endsWith(QLatin1String("href"), Qt::CaseInsensitive))
        return value.startsWith(QLatin1String("data:image/")) || value.startsWith(u'#');
    return true;
}

// Copies `reader`'s current element (its start already read) and what it holds to `writer`.
void copyElement(QXmlStreamReader &reader, QXmlStreamWriter &writer, const QString &title)
{
    writer.writeStartElement(reader.qualifiedName().toString());
    for (const QXmlStreamAttribute &a : reader.attributes())
        if (allowedAttribute(a.qualifiedName(), a.value()))
            writer.writeAttribute(a.qualifiedName().toString(), a.value().toString());
    if (reader.qualifiedName() == QLatin1String("title")) {
        reader.skipCurrentElement();
        writer.writeCharacters(title);
        writer.writeEndElement();
        return;
    }
    while (!reader.atEnd()) {
        switch (reader.readNext()) {
        case QXmlStreamReader::StartElement:
            if (allowedElement(reader.qualifiedName()))
                copyElement(reader, writer, title);
            else
                reader.skipCurrentElement();
            break;
        case QXmlStreamReader::EndElement:
            writer.writeEndElement();
            return;
        case QXmlStreamReader::Characters:
            writer.writeCharacters(reader.text().toString());
            break;
        default: // comments, processing instructions, DTDs: not carried over
            break;
        }
    }
}

} // namespace

QByteArray SafeSvg::inlineElement(const QByteArray &svg, const QString &title)
{
    QXmlStreamReader reader(svg);
    reader.setNamespaceProcessing(false); // namespace declarations stay plain attributes
    QByteArray out;
    QXmlStreamWriter writer(&out);
    while (!reader.atEnd() && reader.readNext() != QXmlStreamReader::StartElement) {
    }
    if (reader.qualifiedName() != QLatin1String("svg"))
        return {};
    copyElement(reader, writer, title);
    while (!reader.atEnd())
        reader.readNext(); // what follows the root: only whitespace and comments are valid
    return reader.hasError() ? QByteArray() : out;
}

} // namespace oe
