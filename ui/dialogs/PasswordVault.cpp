#include "dialogs/PasswordVault.h"

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

} // namespace oe
