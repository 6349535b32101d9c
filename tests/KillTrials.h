#pragma once

#include <QString>
#include <QStringList>

// Kill -9 trials of a CLI run: how many runs were killed, and how many ended on their own first.
struct KillTrials
{
    int killed = 0, finished = 0;
    QString lastFailure; // how the last run that ended on its own with an error ended

    QString summary() const;

    // Runs `program` with `args` and kills it (-9, no clean-up of any kind) at a random moment
    // within 30-600 ms, until `kills` runs were killed or one finished (exit 0: the work is
    // done, later runs would have nothing left to interrupt). Prints the summary.
    static KillTrials run(const QString &program, const QStringList &args, int kills);
};
