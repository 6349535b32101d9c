#pragma once

#include "source/SourceError.h"

#include <QString>

namespace oe {

// What the window says when something fails: a one-line headline that names the cause (and,
// for a dump, the document, byte offset and field), advice that fits the kind of failure (a
// server that went away is not "bad input"), and the details behind a button.
struct ErrorNotice
{
    QString title;
    QString headline;
    QString advice;
    QString details;

    // `what` failed ("Could not list the databases of prod") because of `cause`.
    static ErrorNotice of(const QString &title, const QString &what, const SourceError &cause);
    // A failure described by text only (a file write, the keychain): its first line joins the
    // headline, the rest goes to the details.
    static ErrorNotice of(const QString &title, const QString &what, const QString &cause,
                          SourceError::Kind kind = SourceError::Kind::Io);
};

} // namespace oe
