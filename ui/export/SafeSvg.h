#pragma once

#include <QByteArray>
#include <QString>

namespace oe {

// A chart's SVG made safe to inline in the shareable HTML report, whatever the strings drawn
// into it (field names come from the server or a file): parsed and written out again, so every
// text and attribute is escaped by the XML writer; scripts, foreign objects, event handlers and
// links other than to the document itself or to inline images dropped; the title set to
// `title`. Without the XML declaration, ready to inline. Empty when the SVG does not parse.
class SafeSvg
{
public:
    static QByteArray inlineElement(const QByteArray &svg, const QString &title);
};

} // namespace oe
