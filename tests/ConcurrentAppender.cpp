#include "ConcurrentAppender.h"

#include "MongoRuntime.h"

#include <mongoc/mongoc.h>

#include <cstring>

namespace {

// {key: value} from a raw value (type byte + value bytes).
bson_t *single(const char *key, const QByteArray &raw)
{
    QByteArray wrapped =
        QByteArray(4, '\0') + raw.left(1) + QByteArray("k", 2) + raw.mid(1) + QByteArray(1, '\0');
    const auto length = std::uint32_t(wrapped.size());
    std::memcpy(wrapped.data(), &length, 4);
    bson_t view;
    bson_iter_t it;
    bson_t *out = bson_new();
    if (bson_init_static(&view, reinterpret_cast<const std::uint8_t *>(wrapped.constData()),
                         length) &&
        bson_iter_init(&it, &view) && bson_iter_next(&it))
        bson_append_iter(out, key, -1, &it);
    return out;
}

QByteArray rawUtf8(const std::string &value)
{
    const auto length = std::uint32_t(value.size() + 1);
    return QByteArray(1, char(BSON_TYPE_UTF8)) +
           QByteArray(reinterpret_cast<const char *>(&length), 4) +
           QByteArray(value.c_str(), qsizetype(value.size())) + QByteArray(1, '\0');
}

// Runs update_one and tells whether it matched a document.
bool updateOne(mongoc_collection_t *c, const bson_t *filter, const bson_t *update, bool *matched,
               QString *error)
{
    bson_t reply;
    bson_error_t e;
    const bool ok = mongoc_collection_update_one(c, filter, update, nullptr, &reply, &e);
    bson_iter_t it;
    *matched =
        ok && bson_iter_init_find(&it, &reply, "matchedCount") && bson_iter_as_int64(&it) == 1;
    bson_destroy(&reply);
    if (!ok)
        *error = QString::fromUtf8(e.message);
    return ok;
}

// One append by the write path; `path` says which one took it.
bool append(mongoc_collection_t *primary, mongoc_collection_t *overflow, const QByteArray &field,
            const QByteArray &flag, int pageSize, const QByteArray &id, const std::string &value,
            ConcurrentAppender::Path *path, QString *error)
{
    using Path = ConcurrentAppender::Path;
    bson_t *push = BCON_NEW("$push", "{", field.constData(), BCON_UTF8(value.c_str()), "}");
    bool ok = true, done = false;
    for (int attempt = 0; ok && !done && attempt < 50; ++attempt) {
        // No flag: push to the document itself.
        bson_t *unflagged = single("_id", id);
        BCON_APPEND(unflagged, flag.constData(), "{", "$ne", BCON_BOOL(true), "}");
        ok = updateOne(primary, unflagged, push, &done, error);
        bson_destroy(unflagged);
        *path = Path::Primary;
        if (!ok || done)
            break;
        // Flag set: the last page, found by sorting this document's pages.
        bson_t *mine = single("parent_id", id);
        bson_t *opts = BCON_NEW("sort", "{", "page", BCON_INT32(-1), "}", "limit", BCON_INT64(1));
        mongoc_cursor_t *cursor = mongoc_collection_find_with_opts(overflow, mine, opts, nullptr);
        const bson_t *last = nullptr;
        std::int64_t page = -1;
        int items = 0;
        if (mongoc_cursor_next(cursor, &last)) {
            bson_iter_t f, a;
            if (bson_iter_init_find(&f, last, "page"))
                page = bson_iter_as_int64(&f);
            if (bson_iter_init_find(&f, last, field.constData()) && bson_iter_recurse(&f, &a))
                while (bson_iter_next(&a))
                    ++items;
        }
        bson_error_t e;
        if (mongoc_cursor_error(cursor, &e)) {
            ok = false;
            *error = QString::fromUtf8(e.message);
        }
        mongoc_cursor_destroy(cursor);
        bson_destroy(opts);
        if (ok && page >= 0 && items < pageSize) {
            // Room on the last page: push there, if it still has the items we counted.
            bson_t *lastPage = bson_copy(mine);
            BCON_APPEND(lastPage, "page", BCON_INT64(page), field.constData(), "{", "$size",
                        BCON_INT32(items), "}");
            ok = updateOne(overflow, lastPage, push, &done, error);
            bson_destroy(lastPage);
            *path = Path::Page;
        } else if (ok && page >= 0) {
            bson_t *next = bson_copy(mine);
            BCON_APPEND(next, "page", BCON_INT64(page + 1), field.constData(), "[",
                        BCON_UTF8(value.c_str()), "]");
            done = mongoc_collection_insert_one(overflow, next, nullptr, nullptr, &e);
            if (!done && e.code != 11000) { // a duplicate key is a lost race: retry
                ok = false;
                *error = QString::fromUtf8(e.message);
            }
            bson_destroy(next);
            *path = Path::NewPage;
        }
        // page < 0: flagged without pages, so rolled back meanwhile: start over from the document.
        bson_destroy(mine);
    }
    bson_destroy(push);
    if (ok && !done)
        *error = QStringLiteral("no append path succeeded in 50 attempts");
    return ok && done;
}

// A client on the target's collections, for one thread.
struct Session
{
    explicit Session(const ConcurrentAppender::Target &t)
        : target(t), client(mongoc_client_new(t.uri.toUtf8().constData()))
    {
        if (!client)
            return;
        const QByteArray db = t.database.toUtf8();
        primary =
            mongoc_client_get_collection(client, db.constData(), t.collection.toUtf8().constData());
        overflow =
            mongoc_client_get_collection(client, db.constData(), t.overflow.toUtf8().constData());
    }
    ~Session()
    {
        if (!client)
            return;
        mongoc_collection_destroy(primary);
        mongoc_collection_destroy(overflow);
        mongoc_client_destroy(client);
    }
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;
    bool append(const QByteArray &id, const std::string &value, ConcurrentAppender::Path *path,
                QString *error)
    {
        return ::append(primary, overflow, target.field.toUtf8(), target.flag.toUtf8(),
                        target.pageSize, id, value, path, error);
    }

    const ConcurrentAppender::Target &target;
    mongoc_client_t *client;
    mongoc_collection_t *primary = nullptr;
    mongoc_collection_t *overflow = nullptr;
};

} // namespace

ConcurrentAppender::ConcurrentAppender(Target target, std::vector<QByteArray> ids,
                                       std::chrono::milliseconds pace, std::string name)
    : m_target(std::move(target)), m_ids(std::move(ids)), m_pace(pace), m_name(std::move(name))
{
}

ConcurrentAppender::~ConcurrentAppender()
{
    stop(0);
}

void ConcurrentAppender::start()
{
    oe::MongoRuntime::ensureInitialized();
    m_thread = std::thread([this] { run(); });
}

bool ConcurrentAppender::stop(int minimum)
{
    m_minimum.store(minimum);
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
    return m_error.isEmpty();
}

int ConcurrentAppender::duringMigration(Path path) const
{
    const auto it = m_duringByPath.find(path);
    return it == m_duringByPath.end() ? 0 : it->second;
}

int ConcurrentAppender::documentsWrittenAcrossTheirTrim() const
{
    int n = 0;
    for (const auto &[id, flagStates] : m_flagSeenDuring)
        n += flagStates.size() == 2 ? 1 : 0;
    return n;
}

bool ConcurrentAppender::appendNow(const QByteArray &id, Path *path)
{
    oe::MongoRuntime::ensureInitialized();
    Session session(m_target);
    if (!session.client) {
        m_error = QStringLiteral("invalid URI");
        return false;
    }
    const std::string value = "now-" + std::to_string(m_count.load());
    Path taken = Path::Primary;
    if (!session.append(id, value, &taken, &m_error))
        return false;
    m_elements[id] << rawUtf8(value);
    ++m_count;
    if (path)
        *path = taken;
    return true;
}

void ConcurrentAppender::run()
{
    Session session(m_target);
    if (!session.client) {
        m_error = QStringLiteral("invalid URI");
        return;
    }
    for (int n = 0; !m_ids.empty() && (!m_stop.load() || n < m_minimum.load()); ++n) {
        const QByteArray &id = m_ids[std::size_t(n) % m_ids.size()];
        const std::string value = m_name + '-' + std::to_string(n);
        const bool during = m_during.load();
        Path path = Path::Primary;
        QString error;
        if (!session.append(id, value, &path, &error)) {
            m_error = error;
            break;
        }
        m_elements[id] << rawUtf8(value);
        ++m_count;
        if (during) {
            ++m_duringByPath[path];
            m_flagSeenDuring[id].insert(path != Path::Primary);
        }
        std::this_thread::sleep_for(m_pace); // an application's pace, not a flood
    }
}
