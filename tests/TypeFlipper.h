#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

// An application in its own thread making type-only writes (an int changed to the equal long)
// while a rewrite runs: each document has the update statements that change it in each form it
// may be in (before the rewrite, after it), tried in turn until one modifies it; a document is
// changed once. Records which documents it changed (the server said modified: 1), so a test can
// check that every one of them still holds a long at the end: a guard comparing values, not
// bytes, would have overwritten some.
class TypeFlipper
{
public:
    struct Flip
    {
        QByteArray id;          // raw _id
        QString idJson;         // the same as extended JSON, for the statements
        QStringList statements; // {"q": ..., "u": ...} each, extended JSON
    };

    TypeFlipper(QString uri, QString database, QString collection, std::vector<Flip> flips);
    ~TypeFlipper();
    TypeFlipper(const TypeFlipper &) = delete;
    TypeFlipper &operator=(const TypeFlipper &) = delete;

    void start();
    // Stops (after its current write) and returns false with error() set if the server
    // refused a write.
    bool stop();

    QString error() const { return m_error; }
    // The documents it changed (raw _ids); read after stop().
    const std::set<QByteArray> &changed() const { return m_changed; }

private:
    void run();

    QString m_uri, m_database, m_collection;
    std::vector<Flip> m_flips;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    QString m_error;
    std::set<QByteArray> m_changed;
};
