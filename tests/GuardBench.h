#pragma once

// The guard's live tests' bench (tst_guard, tst_guardtyperule): the `guard` and `split` runs of
// the CLI on a collection of `database`, the collection's options and validator read back, and
// the fixture collections (a split one, one with mixed types).

#include "CliRunner.h"
#include "LiveBench.h"
#include "LiveDocuments.h"
#include "LiveServer.h"

#include <QtTest>

#include <bson/bson.h>

class GuardBench : public LiveBench
{
protected:
    explicit GuardBench(QString database) : LiveBench(std::move(database)) {}

    static QByteArray json(const QString &text) { return text.toUtf8(); }
    CliRun guard(const QString &collection, const QStringList &more) const
    {
        return runCli(QStringList{QStringLiteral("guard"), QStringLiteral("--uri"), m_uri,
                                  QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                                  collection} +
                      more);
    }
    QStringList targetOf(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), m_db,
                QStringLiteral("--collection"), collection};
    }
    // `split` of the collection's comments at 3, confirmed.
    CliRun split(const QString &collection) const
    {
        return runCli(QStringList{QStringLiteral("split")} + targetOf(collection) + layout(3) +
                      QStringList{QStringLiteral("--yes")});
    }
    static QStringList layout(int keep)
    {
        return {QStringLiteral("--field"), QStringLiteral("comments"), QStringLiteral("--keep"),
                QString::number(keep)};
    }
    // The server refused the write for the validator (code 121, "Document failed validation").
    bool refused(const QString &command) const
    {
        QString error;
        QByteArray reply;
        return !fixtures::command(m_uri, m_db, json(command), &error, &reply) &&
               reply.contains("Document failed validation");
    }
    // The collection's options as listCollections returns them (BSON bytes).
    QByteArray optionsOf(const QString &collection) const
    {
        QString error;
        QByteArray reply;
        if (!fixtures::command(m_uri, m_db,
                               json(QStringLiteral("{\"listCollections\": 1, \"filter\": "
                                                   "{\"name\": \"%1\"}}")
                                        .arg(collection)),
                               &error, &reply))
            return {};
        bson_t doc;
        bson_iter_t it, found;
        if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(reply.constData()),
                              std::size_t(reply.size())) ||
            !bson_iter_init(&it, &doc) ||
            !bson_iter_find_descendant(&it, "cursor.firstBatch.0.options", &found))
            return {};
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_document(&found, &length, &data);
        return QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
    }
    // The rule, {year: int}, which the fixture's documents (no year) pass too.
    static QString yearRule()
    {
        return QStringLiteral("{\"$or\": [{\"year\": {\"$exists\": false}}, {\"year\": "
                              "{\"$type\": \"int\"}}]}");
    }
    // A string option of `options` ("" when not listed: `fallback`).
    static QString textOption(const QByteArray &options, const char *key, const char *fallback)
    {
        bson_t doc;
        bson_iter_t it;
        if (bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(options.constData()),
                             std::size_t(options.size())) &&
            bson_iter_init_find(&it, &doc, key) && BSON_ITER_HOLDS_UTF8(&it))
            return QString::fromUtf8(bson_iter_utf8(&it, nullptr));
        return QString::fromLatin1(fallback);
    }
    // The collection's validator as canonical extended JSON.
    QString validatorJson(const QString &collection) const
    {
        const QByteArray options = optionsOf(collection);
        bson_t doc, rule;
        bson_iter_t it;
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(options.constData()),
                              std::size_t(options.size())) ||
            !bson_iter_init_find(&it, &doc, "validator") || !BSON_ITER_HOLDS_DOCUMENT(&it))
            return {};
        bson_iter_document(&it, &length, &data);
        if (!bson_init_static(&rule, data, length))
            return {};
        char *text = bson_as_canonical_extended_json(&rule, nullptr);
        const QString out = QString::fromUtf8(text);
        bson_free(text);
        return out;
    }
    QString pushTo(const QString &collection, const QString &id, int elements) const
    {
        QStringList items;
        for (int i = 0; i < elements; ++i)
            items << QStringLiteral("{\"n\": %1}").arg(100 + i);
        return QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": \"%2\"}, "
                              "\"u\": {\"$push\": {\"comments\": {\"$each\": [%3]}}}}]}")
            .arg(collection, id, items.join(QLatin1Char(',')));
    }
    // `level` and `action` empty: not given at create (listed as nothing: the defaults).
    void makeCollection(const QString &collection, const QString &validator,
                        const QString &level = QStringLiteral("strict"),
                        const QString &action = QStringLiteral("error")) const
    {
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(collection));
        QString options;
        if (!validator.isEmpty())
            options += QStringLiteral(", \"validator\": %1").arg(validator);
        if (!validator.isEmpty() && !level.isEmpty())
            options += QStringLiteral(", \"validationLevel\": \"%1\"").arg(level);
        if (!validator.isEmpty() && !action.isEmpty())
            options += QStringLiteral(", \"validationAction\": \"%1\"").arg(action);
        QString error;
        QVERIFY2(run(QStringLiteral("{\"create\": \"%1\"%2}").arg(collection, options), &error),
                 qPrintable(error));
        // A split (3 kept, flagged), a small one, and an outlier nobody split yet.
        QVERIFY2(
            run(QStringLiteral(
                    "{\"insert\": \"%1\", \"documents\": ["
                    "{\"_id\": \"A\", \"title\": \"a\", \"has_extras\": true, \"comments\": "
                    "[{\"n\": 1}, {\"n\": 2}, {\"n\": 3}]},"
                    "{\"_id\": \"B\", \"title\": \"b\", \"comments\": [{\"n\": 1}]},"
                    "{\"_id\": \"C\", \"title\": \"c\", \"comments\": [{\"n\": 1}, {\"n\": 2}, "
                    "{\"n\": 3}, {\"n\": 4}, {\"n\": 5}, {\"n\": 6}]}]}")
                    .arg(collection),
                &error),
            qPrintable(error));
    }

    // Documents with a mixed-type price, a nested mixed value in an array of sub-documents, and
    // an array with a stray element type; the split's guard goes on first.
    void makeMixedCollection(const QString &collection) const
    {
        makeCollection(collection, {});
        QString error;
        QVERIFY2(
            run(QStringLiteral("{\"insert\": \"%1\", \"documents\": ["
                               "{\"_id\": 1, \"price\": 9.5, \"tags\": [\"x\"], \"replies\": "
                               "[{\"likes\": 1}]},"
                               "{\"_id\": 2, \"price\": 3, \"tags\": [\"y\", 7], \"replies\": "
                               "[{\"likes\": 2}]},"
                               "{\"_id\": 3, \"price\": \"12.50\", \"replies\": [{\"likes\": 1}, "
                               "{\"likes\": \"many\"}]},"
                               "{\"_id\": 4, \"price\": \"n/a\", \"tags\": []}]}")
                    .arg(collection),
                &error),
            qPrintable(error));
    }
    // The guard's record of `collection`, as relaxed extended JSON (empty when there is none).
    QString guardRecord(const QString &collection) const
    {
        const auto records =
            fixtures::readCollection(m_uri, m_db, QStringLiteral("outlier_explorer_guards"));
        for (const auto &[id, bytes] : records) {
            bson_t doc;
            if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                  std::size_t(bytes.size())))
                continue;
            char *text = bson_as_relaxed_extended_json(&doc, nullptr);
            const QString json = QString::fromUtf8(text);
            bson_free(text);
            if (json.contains(QStringLiteral("\"_id\" : \"%1\"").arg(collection)))
                return json;
        }
        return {};
    }
    QString insertPrice(const QString &collection, const QString &id, const QString &price) const
    {
        return QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"%2\", "
                              "\"price\": %3}]}")
            .arg(collection, id, price);
    }
};
