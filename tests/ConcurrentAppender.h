#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

// An application appending to outlier documents in its own thread, by the product's write
// path (OverflowAppender, what `codegen` writes): while a document has no flag (and does not
// hold exactly `keep` elements) the element is pushed into it; once the flag is set, one atomic
// update counts it and names its overflow slot, and it goes to the page that slot falls in.
// Records every element it appended, per document and in order, and which path each took
// while the migration was running.
class ConcurrentAppender
{
public:
    struct Target
    {
        QString uri, database, collection, overflow, field, flag;
        int pageSize = 0;
        QString count; // empty: the split's default, <field>_count
        int keep = 0;
    };
    enum class Path
    {
        Primary, // pushed to the document (no flag yet)
        Page,    // appended to the last overflow page (flag set)
        NewPage  // started the next overflow page (flag set, last page full)
    };

    // Appends to `ids` in turn, one element every `pace`; the elements are strings
    // "<name>-<n>".
    ConcurrentAppender(Target target, std::vector<QByteArray> ids, std::chrono::milliseconds pace,
                       std::string name = "writer");
    ~ConcurrentAppender();
    ConcurrentAppender(const ConcurrentAppender &) = delete;
    ConcurrentAppender &operator=(const ConcurrentAppender &) = delete;

    void start();
    // Appends made from now on count as made during the migration, until migrationEnded().
    void migrationStarted() { m_during.store(true); }
    void migrationEnded() { m_during.store(false); }
    // Stops once at least `minimum` elements were appended in all; returns false (with
    // error() set) if the server refused a write.
    bool stop(int minimum);

    // Appends one element to `id` now, from the calling thread (never while the thread runs),
    // recorded like the thread's; false with error() set if the server refused it.
    bool appendNow(const QByteArray &id, Path *path = nullptr);

    QString error() const { return m_error; }
    int appended() const { return m_count.load(); }
    // Appended elements (raw BSON values: type byte + value) per document _id (raw value).
    const std::map<QByteArray, QList<QByteArray>> &elements() const { return m_elements; }
    // Appends made by each path while the migration ran.
    int duringMigration(Path path) const;
    // Documents appended to during the migration both without the flag and with it: the
    // writer was there before and after their trim.
    int documentsWrittenAcrossTheirTrim() const;

private:
    void run();

    Target m_target;
    std::vector<QByteArray> m_ids;
    std::chrono::milliseconds m_pace;
    std::string m_name;
    std::thread m_thread;
    std::atomic<bool> m_stop{false}, m_during{false};
    std::atomic<int> m_minimum{0}, m_count{0};
    // Written by the thread only; read after stop() has joined it.
    QString m_error;
    std::map<QByteArray, QList<QByteArray>> m_elements;
    std::map<Path, int> m_duringByPath;
    std::map<QByteArray, std::set<bool>> m_flagSeenDuring; // per document: flag absent/present
};
