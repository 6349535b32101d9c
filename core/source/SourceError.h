#pragma once

#include <QString>

#include <cstdint>

namespace oe {

// What went wrong while reading documents, and where. Rendered as one line for users.
struct SourceError
{
    enum class Kind
    {
        None,
        Io,
        InvalidData,
        Connection,
        Usage
    };

    // For Kind::Connection: what went wrong, so the advice fits (a server that went away is
    // not a wrong password).
    enum class ConnectionFault
    {
        Unknown,
        Lost,           // the server went away, refused the connection or reset it mid-scan
        Authentication, // the credentials, or the user's rights
        Refused         // the server refused the operation (its error code says why)
    };

    Kind kind = Kind::None;
    ConnectionFault fault = ConnectionFault::Unknown;
    QString message; // the problem, e.g. "document length 3 is below the BSON minimum of 5"
    QString source;  // file name or redacted URI
    std::int64_t docIndex = -1;   // 0-based position of the document in the source
    std::int64_t byteOffset = -1; // byte offset in the file where the problem was found
    QString fieldPath;            // field path, where the problem is inside a document
    int serverCode = 0;           // the server's error code, when the server refused an operation

    bool isError() const { return kind != Kind::None; }
    QString toString() const;
    static SourceError io(const QString &source, const QString &message);
    static SourceError invalidData(const QString &source, const QString &message,
                                   std::int64_t docIndex, std::int64_t byteOffset);
};

} // namespace oe
