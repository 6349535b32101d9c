#pragma once

#include "remedy/RewriteConfig.h"

#include <QByteArray>
#include <QString>

namespace oe {

// What a rewrite makes of one value. Values are raw BSON (the type byte, then the value's bytes
// as a document holds them), so what is journaled and put back is exactly what was there.
struct RewriteResult
{
    enum class Outcome
    {
        Changed,   // `after` replaces it
        Unchanged, // already what the rewrite makes (a double for "to double"; null), left alone
        Cannot     // no faithful rewrite ("n/a" to double; a long past 2^53): left alone, listed
    };
    Outcome outcome = Outcome::Unchanged;
    QByteArray after; // Changed: the new raw value
    QString why;      // Unchanged and Cannot: one line
};

// The rewrite of one value, the same for the preview, the apply and the verify: the remedy's
// own (RemedyRegistry::of(config.kind).rewrite), never a silent truncation or a partial parse.
class ValueRewriter
{
public:
    static RewriteResult rewrite(const RewriteConfig &config, const QByteArray &raw);
    // A raw value as relaxed extended JSON, for previews ("12.50", 12.5, {"a": 1}).
    static QString toJson(const QByteArray &raw);
};

} // namespace oe
