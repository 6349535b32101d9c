#pragma once

// The journals an older build wrote (tests/data/journals/<run>/, make_fixtures.py): a fixture's
// collections loaded into a live server as that build left them, and its original documents.

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <map>

namespace fixtures {

// The documents of a .bson file (concatenated documents), by _id (raw values).
std::map<QByteArray, QByteArray> documentsOf(const QString &path);

// The fixture `run`'s folder (found beside the test sources), empty when there is none.
QString journalFixtureDir(const QString &run);
QJsonObject journalManifest(const QString &dir);

// Each collection of the fixture in `dir` loaded into `database` (the CLI's import, an empty
// one created) with the indexes the old build had made. Empty, or what went wrong.
QString loadJournalFixture(const QString &uri, const QString &database, const QString &dir);

} // namespace fixtures
