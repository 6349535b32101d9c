#pragma once

#include <QByteArray>
#include <QString>

namespace oe {

// A collection's validationLevel, weakest first: the order is what "never lower" compares.
// Unknown is a word this version does not know (a newer server's): nothing is compared to it.
enum class ValidationLevel
{
    Off,
    Moderate,
    Strict,
    Unknown
};

// A collection's validationAction, weakest first (errorAndLog is MongoDB 8.1's).
enum class ValidationAction
{
    Warn,
    Error,
    ErrorAndLog,
    Unknown
};

QString validationLevelName(ValidationLevel level);
QString validationActionName(ValidationAction action);

// The validation options of one collection as listCollections lists them. Level and action
// belong to the whole validator (MongoDB applies them to every rule in it), so a guard merged
// into the validator is compared with these, never set below them. What the server does not
// list is its default (strict, error), and `levelListed`/`actionListed` say which were listed.
struct ValidationSettings
{
    QByteArray validator; // BSON; empty when the collection has none listed
    ValidationLevel level = ValidationLevel::Strict;
    ValidationAction action = ValidationAction::Error;
    bool validatorListed = false;
    bool levelListed = false;
    bool actionListed = false;
    QString levelWord; // the server's own words (for an Unknown one, and for display)
    QString actionWord;

    // {validator?, validationLevel?, validationAction?} (listCollections' options, or a part).
    static ValidationSettings fromOptions(const QByteArray &options);
    // The same three, each only when listed.
    QByteArray toOptions() const;

    bool hasRule() const;  // a validator with at least one key
    bool enforces() const; // a rule that is checked (level not off)
    bool isKnown() const
    {
        return level != ValidationLevel::Unknown && action != ValidationAction::Unknown;
    }
    QString levelText() const; // "strict", or "strict (not listed: MongoDB's default)"
    QString actionText() const;
    QString describe() const; // "validationLevel strict, validationAction error"
};

} // namespace oe
