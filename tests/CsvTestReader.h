#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

// A small RFC 4180 reader for tests: quoted fields, doubled quotes, embedded CR/LF, CRLF
// record ends. Independent of the writer under test.
namespace csvtest {
QList<QStringList> parse(const QByteArray &bytes);
QList<QStringList> readFile(const QString &path); // empty if the file cannot be read
} // namespace csvtest
