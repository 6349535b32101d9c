#pragma once

#include <QDateTime>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace oe {

// When a size reaches a threshold, from how it grew: a least-squares line through (time,
// bytes) points (the analysis history's runs, or two samples), with its uncertainty stated: the
// slope's 95 % interval (± 2 standard errors) from three points on, and none from two (said so).
struct GrowthForecast
{
    static constexpr double kLimit = 16.0 * 1024 * 1024; // MongoDB's document limit

    struct Crossing
    {
        double target = 0;                 // bytes
        std::optional<QDateTime> expected; // nullopt: not growing towards it
        std::optional<QDateTime> earliest; // at the fast end of the interval
        std::optional<QDateTime> latest;   // at the slow end; nullopt: maybe never
        bool alreadyOver = false;
    };

    bool valid = false;
    QString why; // when not valid: what is missing, one line
    int points = 0;
    double perDay = 0;    // bytes a day
    double perDayLow = 0; // the interval (equal to perDay from two points)
    double perDayHigh = 0;
    bool uncertaintyKnown = false;
    double now = 0; // the line's value at the last point
    QDateTime last;
    Crossing threshold;
    Crossing limit;

    // Points in any order; at least two at different times.
    static GrowthForecast fit(std::vector<std::pair<QDateTime, double>> points,
                              double thresholdBytes);
    // One line: "+1.2 MiB/day (0.9–1.5 MiB); 8 MiB about 2027-01-03 (2026-12-20 to
    // 2027-02-11); 16 MiB about …".
    QString summary() const;
};

} // namespace oe
