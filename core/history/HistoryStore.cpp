#include "history/HistoryStore.h"

#include "bson/DocumentId.h"
#include "mongo/ConnectionUri.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <algorithm>

namespace oe {

namespace {

QAtomicInteger<quint64> g_connections;

const char *const kSchema[] = {
    "CREATE TABLE IF NOT EXISTS runs ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, origin TEXT NOT NULL,"
    " source_key TEXT NOT NULL, database_name TEXT, collection_name TEXT, mode TEXT,"
    " documents INTEGER, size_p50 INTEGER, size_p99 INTEGER, size_max INTEGER, size_mean REAL,"
    " outlier_documents INTEGER, size_threshold INTEGER, longest_path TEXT,"
    " longest_array INTEGER)",
    "CREATE INDEX IF NOT EXISTS runs_source ON runs (source_key, at)",
    "CREATE TABLE IF NOT EXISTS paths ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, path TEXT NOT NULL,"
    " arrays INTEGER, length_p50 INTEGER, length_p99 INTEGER, length_max INTEGER,"
    " elements INTEGER, PRIMARY KEY (run_id, path))",
    "CREATE TABLE IF NOT EXISTS outliers ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, kind TEXT NOT NULL,"
    " rank INTEGER NOT NULL, document_id TEXT, bytes INTEGER, path TEXT, length INTEGER,"
    " PRIMARY KEY (run_id, kind, rank))",
};

// From one format to the next, each step in the transaction that sets user_version.
const char *const kToFormat2[] = {
    "ALTER TABLE runs ADD COLUMN shape_flags INTEGER",
    "CREATE TABLE IF NOT EXISTS shape_flags ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, kind TEXT NOT NULL,"
    " path TEXT NOT NULL, type TEXT NOT NULL, count INTEGER, total INTEGER,"
    " PRIMARY KEY (run_id, kind, path, type))",
};

const char *const kToFormat3[] = {
    "CREATE TABLE IF NOT EXISTS version_shares ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, field TEXT NOT NULL,"
    " value TEXT NOT NULL, documents INTEGER, PRIMARY KEY (run_id, field, value))",
};

qint64 asInt(std::uint64_t v)
{
    return v > std::uint64_t(std::numeric_limits<qint64>::max())
               ? std::numeric_limits<qint64>::max()
               : qint64(v);
}

// An _id as the history keeps it: its relaxed extended JSON, a megabyte one shortened (the same
// way every time, so runs still match it).
QString storedId(const std::string &rawId)
{
    const QString json = DocumentId::toRelaxedJson(rawId);
    if (json.size() <= 1024)
        return json;
    qsizetype cut = 1000;
    if (json.at(cut - 1).isHighSurrogate())
        --cut;
    return json.left(cut) + QStringLiteral("… (%1 characters)").arg(json.size());
}

// An empty text as '' (Qt SQL binds a null QString as NULL).
QString notNull(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("") : text;
}

std::uint64_t asUnsigned(const QVariant &v)
{
    const qint64 n = v.toLongLong();
    return n < 0 ? 0 : std::uint64_t(n);
}

} // namespace

QString HistoryStore::defaultPath()
{
    if (const QString env = qEnvironmentVariable("OE_HISTORY_DB"); !env.isEmpty())
        return env == QLatin1String("off") ? QString() : env;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/outlier-explorer/history.sqlite");
}

QString HistoryStore::sourceKeyOf(const SourceRef &source)
{
    if (source.kind == SourceRef::Kind::Dump)
        return QStringLiteral("dump:") + QFileInfo(source.dumpPath).absoluteFilePath();
    ConnectionUri parts;
    QString error;
    const QString hosts = ConnectionUri::parse(source.settings.uri, &parts, &error)
                              ? parts.hosts
                              : QStringLiteral("unknown");
    return QStringLiteral("%1://%2/%3.%4")
        .arg(parts.srv ? QStringLiteral("mongodb+srv") : QStringLiteral("mongodb"), hosts,
             source.database, source.collection);
}

HistoryStore::HistoryStore(const QString &path)
    : m_path(path), m_connection(QStringLiteral("oe-history-%1").arg(++g_connections))
{
    if (path.isEmpty()) {
        m_error = QStringLiteral("the analysis history is off (OE_HISTORY_DB=off)");
        return;
    }
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        m_error = QStringLiteral("the analysis history needs Qt's SQLite driver "
                                 "(Debian: libqt6sql6-sqlite)");
        return;
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        m_error = QStringLiteral("%1: cannot create its folder").arg(path);
        return;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    if (!db.open()) {
        m_error = QStringLiteral("%1: %2").arg(path, db.lastError().text());
        return;
    }
    if (const int found = format(); found > kFormat) { // nothing written to a newer file
        m_error = QStringLiteral("%1: written by a newer Outlier Explorer (history format %2; this "
                                 "version reads up to %3)")
                      .arg(path)
                      .arg(found)
                      .arg(kFormat);
        return;
    }
    exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    for (const char *statement : kSchema)
        if (!exec(QString::fromLatin1(statement)))
            return;
    migrate();
}

int HistoryStore::format() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return 0;
    return std::max(1, q.value(0).toInt()); // format 1 never set it
}

// Brings a file an older version wrote (or a new one, created in format 1 above) to kFormat.
// BEGIN IMMEDIATE takes the write lock first, so a second process opening the same old file
// waits, then finds it migrated.
bool HistoryStore::migrate()
{
    if (format() >= kFormat)
        return true;
    if (!exec(QStringLiteral("BEGIN IMMEDIATE")))
        return false;
    bool ok = true;
    if (format() < 2)
        for (const char *statement : kToFormat2)
            ok = ok && exec(QString::fromLatin1(statement));
    if (format() < 3)
        for (const char *statement : kToFormat3)
            ok = ok && exec(QString::fromLatin1(statement));
    ok = ok && exec(QStringLiteral("PRAGMA user_version = %1").arg(kFormat));
    if (ok && exec(QStringLiteral("COMMIT")))
        return true;
    const QString failed = m_error; // what failed, not the rollback's own complaint
    exec(QStringLiteral("ROLLBACK"));
    m_error = failed;
    return false;
}

bool HistoryStore::recordShape(qint64 runId, const ShapeReport &shape)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO shape_flags (run_id, kind, path, type, "
                             "count, total) VALUES (?, ?, ?, ?, ?, ?)"));
    for (const ShapeFlag &f : shape.flags) {
        for (const QVariant &v :
             {QVariant(runId), QVariant(ShapeFlag::kindName(f.kind)),
              QVariant(notNull(QString::fromStdString(f.path))), QVariant(notNull(f.type)),
              QVariant(asInt(f.count)), QVariant(asInt(f.total))})
            q.addBindValue(v);
        if (!q.exec()) {
            m_error = QStringLiteral("%1: %2").arg(m_path, q.lastError().text());
            return false;
        }
    }
    return recordVersions(runId, shape.versions);
}

bool HistoryStore::recordVersions(qint64 runId, const SchemaVersions &versions)
{
    if (!versions.inEffect())
        return true;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO version_shares (run_id, field, value, "
                             "documents) VALUES (?, ?, ?, ?)"));
    for (const SchemaVersions::Share &s : versions.shares) {
        q.addBindValue(runId);
        q.addBindValue(notNull(QString::fromStdString(versions.field)));
        q.addBindValue(notNull(s.value));
        q.addBindValue(asInt(s.documents));
        if (!q.exec()) {
            m_error = QStringLiteral("%1: %2").arg(m_path, q.lastError().text());
            return false;
        }
    }
    return true;
}

std::vector<SchemaVersions::Point> HistoryStore::versionHistory(const QString &sourceKey,
                                                                const std::string &field) const
{
    std::vector<SchemaVersions::Point> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT r.id, r.at, r.documents, v.value, v.documents FROM runs r "
                             "JOIN version_shares v ON v.run_id = r.id WHERE r.source_key = ? "
                             "AND v.field = ? ORDER BY r.at, r.id"));
    q.addBindValue(sourceKey);
    q.addBindValue(notNull(QString::fromStdString(field)));
    if (!isOpen() || !q.exec())
        return out;
    qint64 run = 0;
    while (q.next()) {
        if (out.empty() || q.value(0).toLongLong() != run) {
            run = q.value(0).toLongLong();
            SchemaVersions::Point p;
            p.at = QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs);
            p.documents = asUnsigned(q.value(2));
            out.push_back(std::move(p));
        }
        out.back().shares.push_back({{}, q.value(3).toString(), asUnsigned(q.value(4))});
    }
    return out;
}

HistoryStore::~HistoryStore()
{
    if (QSqlDatabase::contains(m_connection)) {
        QSqlDatabase::database(m_connection, false).close();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool HistoryStore::exec(const QString &sql)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (q.exec(sql))
        return true;
    m_error = QStringLiteral("%1: %2").arg(m_path, q.lastError().text());
    return false;
}

qint64 HistoryStore::record(const SourceRef &source, const CollectionProfile &profile,
                            const OutlierReport &report, const ShapeReport *shape,
                            const QString &origin, const QDateTime &at)
{
    if (!isOpen())
        return 0;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction()) {
        m_error = QStringLiteral("%1: %2").arg(m_path, db.lastError().text());
        return 0;
    }
    const auto fail = [&](const QSqlQuery &q) {
        m_error = QStringLiteral("%1: %2").arg(m_path, q.lastError().text());
        db.rollback();
        return qint64(0);
    };
    const std::vector<TailCandidate> longest = profile.longestArrays.largest(kTopOutliers);
    QSqlQuery run(db);
    run.prepare(QStringLiteral(
        "INSERT INTO runs (at, origin, source_key, database_name, collection_name, mode, "
        "documents, size_p50, size_p99, size_max, size_mean, outlier_documents, size_threshold, "
        "longest_path, longest_array, shape_flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, ?)"));
    const bool shaped = shape && shape->measured;
    for (const QVariant &v :
         {QVariant(at.toUTC().toString(Qt::ISODateWithMs)), QVariant(origin),
          QVariant(sourceKeyOf(source)), QVariant(source.database),
          QVariant(source.collectionName()), QVariant(profile.mode),
          QVariant(asInt(profile.documents)), QVariant(asInt(profile.sizes.quantile(0.5))),
          QVariant(asInt(profile.sizes.quantile(0.99))), QVariant(asInt(profile.sizes.max())),
          QVariant(profile.sizes.mean()), QVariant(asInt(report.outlierDocuments)),
          QVariant(asInt(report.size.value)),
          QVariant(longest.empty() ? QString() : QString::fromStdString(longest.front().path)),
          QVariant(asInt(longest.empty() ? 0 : longest.front().value)),
          shaped ? QVariant(asInt(shape->flags.size())) : QVariant(QMetaType::fromType<qint64>())})
        run.addBindValue(v);
    if (!run.exec())
        return fail(run);
    const qint64 id = run.lastInsertId().toLongLong();

    QSqlQuery path(db);
    path.prepare(QStringLiteral("INSERT INTO paths (run_id, path, arrays, length_p50, "
                                "length_p99, length_max, elements) VALUES (?, ?, ?, ?, ?, ?, ?)"));
    for (const FieldProfile &f : profile.fields) {
        if (f.arrays == 0)
            continue;
        for (const QVariant &v :
             {QVariant(id), QVariant(QString::fromStdString(f.path)), QVariant(asInt(f.arrays)),
              QVariant(asInt(f.lengths.quantile(0.5))), QVariant(asInt(f.lengths.quantile(0.99))),
              QVariant(asInt(f.lengths.max())), QVariant(asInt(f.elementCount))})
            path.addBindValue(v);
        if (!path.exec())
            return fail(path);
    }

    QSqlQuery outlier(db);
    outlier.prepare(QStringLiteral("INSERT INTO outliers (run_id, kind, rank, document_id, "
                                   "bytes, path, length) VALUES (?, ?, ?, ?, ?, ?, ?)"));
    const auto keep = [&](const QString &kind, const std::vector<TailCandidate> &list) {
        int rank = 0;
        for (const TailCandidate &c : list) {
            for (const QVariant &v :
                 {QVariant(id), QVariant(kind), QVariant(++rank), QVariant(storedId(c.rawId)),
                  QVariant(asInt(c.docSize)), QVariant(QString::fromStdString(c.path)),
                  QVariant(asInt(kind == QLatin1String("array") ? c.value : 0))})
                outlier.addBindValue(v);
            if (!outlier.exec())
                return false;
        }
        return true;
    };
    if (!keep(QStringLiteral("size"), profile.largestDocuments.largest(kTopOutliers)) ||
        !keep(QStringLiteral("array"), longest))
        return fail(outlier);
    if (shaped && !recordShape(id, *shape)) {
        db.rollback();
        return 0;
    }
    if (!db.commit()) {
        m_error = QStringLiteral("%1: %2").arg(m_path, db.lastError().text());
        return 0;
    }
    return id;
}

std::vector<HistoryRun> HistoryStore::runs(const QString &sourceKey) const
{
    std::vector<HistoryRun> out;
    if (!isOpen())
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral(
        "SELECT id, at, origin, source_key, database_name, collection_name, mode, documents, "
        "size_p50, size_p99, size_max, size_mean, outlier_documents, size_threshold, "
        "longest_path, longest_array, shape_flags FROM runs WHERE (COALESCE(?, '') = '' OR "
        "source_key = ?) "
        "ORDER BY at, id"));
    q.addBindValue(sourceKey);
    q.addBindValue(sourceKey);
    if (!q.exec())
        return out;
    while (q.next()) {
        HistoryRun r;
        r.id = q.value(0).toLongLong();
        r.at = QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs);
        r.origin = q.value(2).toString();
        r.sourceKey = q.value(3).toString();
        r.database = q.value(4).toString();
        r.collection = q.value(5).toString();
        r.mode = q.value(6).toString();
        r.documents = asUnsigned(q.value(7));
        r.sizeP50 = asUnsigned(q.value(8));
        r.sizeP99 = asUnsigned(q.value(9));
        r.sizeMax = asUnsigned(q.value(10));
        r.sizeMean = q.value(11).toDouble();
        r.outlierDocuments = asUnsigned(q.value(12));
        r.sizeThreshold = asUnsigned(q.value(13));
        r.longestPath = q.value(14).toString();
        r.longestArray = asUnsigned(q.value(15));
        if (!q.value(16).isNull())
            r.shapeFlags = asUnsigned(q.value(16));
        out.push_back(r);
    }
    return out;
}

std::vector<HistoryPath> HistoryStore::paths(qint64 runId) const
{
    std::vector<HistoryPath> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT path, arrays, length_p50, length_p99, length_max, elements "
                             "FROM paths WHERE run_id = ? ORDER BY path"));
    q.addBindValue(runId);
    if (!isOpen() || !q.exec())
        return out;
    while (q.next())
        out.push_back({runId, q.value(0).toString(), asUnsigned(q.value(1)), asUnsigned(q.value(2)),
                       asUnsigned(q.value(3)), asUnsigned(q.value(4)), asUnsigned(q.value(5))});
    return out;
}

std::vector<HistoryOutlier> HistoryStore::outliers(qint64 runId) const
{
    std::vector<HistoryOutlier> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT kind, rank, document_id, bytes, path, length FROM outliers "
                             "WHERE run_id = ? ORDER BY kind DESC, rank"));
    q.addBindValue(runId);
    if (!isOpen() || !q.exec())
        return out;
    while (q.next())
        out.push_back({runId, q.value(0).toString(), q.value(1).toInt(), q.value(2).toString(),
                       asUnsigned(q.value(3)), q.value(4).toString(), asUnsigned(q.value(5))});
    return out;
}

std::vector<HistoryShapeFlag> HistoryStore::shapeFlags(qint64 runId) const
{
    std::vector<HistoryShapeFlag> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT kind, path, type, count, total FROM shape_flags WHERE "
                             "run_id = ? ORDER BY kind, path, type"));
    q.addBindValue(runId);
    if (!isOpen() || !q.exec())
        return out;
    while (q.next())
        out.push_back({runId, q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                       asUnsigned(q.value(3)), asUnsigned(q.value(4))});
    return out;
}

QStringList HistoryStore::sources() const
{
    QStringList out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (isOpen() && q.exec(QStringLiteral("SELECT DISTINCT source_key FROM runs ORDER BY 1")))
        while (q.next())
            out << q.value(0).toString();
    return out;
}

} // namespace oe
