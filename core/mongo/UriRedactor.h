#pragma once

#include <QString>

namespace oe {

// Hides credentials in MongoDB connection strings: mongodb://user:secret@host/ becomes
// mongodb://user:****@host/. Used for everything shown, logged or exported.
class UriRedactor
{
public:
    static QString redact(const QString &uri);
    // Redacts every mongodb:// or mongodb+srv:// URI inside a longer text (error messages).
    static QString redactText(const QString &text);
};

} // namespace oe
