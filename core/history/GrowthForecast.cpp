#include "history/GrowthForecast.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace oe {

namespace {

constexpr double kMsPerDay = 86400000.0;

QString bytes(double b)
{
    const double a = std::abs(b);
    if (a >= 1024.0 * 1024 * 1024)
        return QString::number(b / (1024.0 * 1024 * 1024), 'f', 2) + QStringLiteral(" GiB");
    if (a >= 1024.0 * 1024)
        return QString::number(b / (1024.0 * 1024), 'f', 2) + QStringLiteral(" MiB");
    if (a >= 1024.0)
        return QString::number(b / 1024.0, 'f', 1) + QStringLiteral(" KiB");
    return QString::number(b, 'f', 0) + QStringLiteral(" B");
}

// When the line through (last, now) at `perDay` reaches `target`; nullopt when it never does.
std::optional<QDateTime> reach(const QDateTime &last, double now, double perDay, double target)
{
    if (perDay <= 0 || target <= now)
        return std::nullopt;
    const double days = (target - now) / perDay;
    if (days > 365.0 * 1000) // a thousand years: never, for anyone reading this
        return std::nullopt;
    return last.addMSecs(qint64(days * kMsPerDay));
}

GrowthForecast::Crossing crossing(const GrowthForecast &f, double target)
{
    GrowthForecast::Crossing c;
    c.target = target;
    c.alreadyOver = f.now >= target;
    if (c.alreadyOver)
        return c;
    c.expected = reach(f.last, f.now, f.perDay, target);
    c.earliest = reach(f.last, f.now, f.perDayHigh, target);
    c.latest = reach(f.last, f.now, f.perDayLow, target);
    return c;
}

QString when(const GrowthForecast::Crossing &c, bool uncertaintyKnown)
{
    const QString name = bytes(c.target);
    if (c.alreadyOver)
        return QStringLiteral("%1 already reached").arg(name);
    if (!c.expected)
        return QStringLiteral("%1 not at this rate").arg(name);
    const auto day = [](const QDateTime &t) { return t.toUTC().date().toString(Qt::ISODate); };
    QString text = QStringLiteral("%1 about %2").arg(name, day(*c.expected));
    if (uncertaintyKnown)
        text += QStringLiteral(" (%1 to %2)")
                    .arg(c.earliest ? day(*c.earliest) : QStringLiteral("?"),
                         c.latest ? day(*c.latest) : QStringLiteral("maybe never"));
    return text;
}

} // namespace

GrowthForecast GrowthForecast::fit(std::vector<std::pair<QDateTime, double>> points,
                                   double thresholdBytes)
{
    GrowthForecast f;
    std::sort(points.begin(), points.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    f.points = int(points.size());
    if (points.size() < 2 || points.front().first == points.back().first) {
        f.why = QStringLiteral("needs two analyses at different times (has %1)").arg(f.points);
        return f;
    }
    const QDateTime origin = points.front().first;
    const double n = double(points.size());
    double sx = 0, sy = 0;
    for (const auto &[t, y] : points) {
        sx += double(origin.msecsTo(t)) / kMsPerDay;
        sy += y;
    }
    const double mx = sx / n, my = sy / n;
    double sxx = 0, sxy = 0;
    for (const auto &[t, y] : points) {
        const double x = double(origin.msecsTo(t)) / kMsPerDay;
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    f.perDay = sxy / sxx;
    const double intercept = my - f.perDay * mx;
    f.last = points.back().first;
    const double lastX = double(origin.msecsTo(f.last)) / kMsPerDay;
    f.now = intercept + f.perDay * lastX;
    f.perDayLow = f.perDayHigh = f.perDay;
    if (points.size() >= 3) {
        double ss = 0;
        for (const auto &[t, y] : points) {
            const double x = double(origin.msecsTo(t)) / kMsPerDay;
            const double r = y - (intercept + f.perDay * x);
            ss += r * r;
        }
        const double se = std::sqrt(ss / (n - 2)) / std::sqrt(sxx);
        f.perDayLow = f.perDay - 2 * se;
        f.perDayHigh = f.perDay + 2 * se;
        f.uncertaintyKnown = true;
    }
    f.valid = true;
    f.threshold = crossing(f, thresholdBytes);
    f.limit = crossing(f, kLimit);
    return f;
}

QString GrowthForecast::summary() const
{
    if (!valid)
        return why;
    QString text = QStringLiteral("%1%2/day")
                       .arg(perDay >= 0 ? QStringLiteral("+") : QString(), bytes(perDay));
    text += uncertaintyKnown
                ? QStringLiteral(" (%1 to %2)").arg(bytes(perDayLow), bytes(perDayHigh))
                : QStringLiteral(" (from %1 points: no uncertainty stated)").arg(points);
    text += QStringLiteral("; ") + when(threshold, uncertaintyKnown);
    if (limit.target != threshold.target)
        text += QStringLiteral("; ") + when(limit, uncertaintyKnown);
    return text;
}

} // namespace oe
