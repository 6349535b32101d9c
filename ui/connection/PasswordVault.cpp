#include "connection/PasswordVault.h"

#include <qt6keychain/keychain.h>

namespace oe {

void PasswordVault::store(const QString &key, const QString &password)
{
    auto *job = new QKeychain::WritePasswordJob(QString::fromLatin1(kService), this);
    job->setInsecureFallback(false);
    job->setAutoDelete(true);
    job->setKey(key);
    job->setTextData(password);
    connect(job, &QKeychain::Job::finished, this, [this, key](QKeychain::Job *j) {
        emit stored(key, j->error() == QKeychain::NoError, j->errorString());
    });
    job->start();
}

void PasswordVault::read(const QString &key)
{
    auto *job = new QKeychain::ReadPasswordJob(QString::fromLatin1(kService), this);
    job->setInsecureFallback(false);
    job->setAutoDelete(true);
    job->setKey(key);
    connect(job, &QKeychain::Job::finished, this, [this, key](QKeychain::Job *j) {
        const auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
        emit readFinished(key, j->error() == QKeychain::NoError ? read->textData() : QString(),
                          j->error() == QKeychain::NoError ? QString() : j->errorString());
    });
    job->start();
}

void PasswordVault::remove(const QString &key)
{
    auto *job = new QKeychain::DeletePasswordJob(QString::fromLatin1(kService), this);
    job->setInsecureFallback(false);
    job->setAutoDelete(true);
    job->setKey(key);
    job->start();
}

void PasswordVault::move(const QString &from, const QString &to)
{
    auto *read = new QKeychain::ReadPasswordJob(QString::fromLatin1(kService), this);
    read->setInsecureFallback(false);
    read->setAutoDelete(true);
    read->setKey(from);
    connect(read, &QKeychain::Job::finished, this, [this, from, to](QKeychain::Job *j) {
        if (j->error() != QKeychain::NoError) {
            emit moved(from, to, false, j->errorString());
            return;
        }
        auto *write = new QKeychain::WritePasswordJob(QString::fromLatin1(kService), this);
        write->setInsecureFallback(false);
        write->setAutoDelete(true);
        write->setKey(to);
        write->setTextData(static_cast<QKeychain::ReadPasswordJob *>(j)->textData());
        connect(write, &QKeychain::Job::finished, this, [this, from, to](QKeychain::Job *w) {
            const bool ok = w->error() == QKeychain::NoError;
            if (ok)
                remove(from);
            emit moved(from, to, ok, ok ? QString() : w->errorString());
        });
        write->start();
    });
    read->start();
}

} // namespace oe
