#include "jobs/AnalysisRunner.h"

#include "jobs/AnalysisWorker.h"

namespace oe {

AnalysisRunner::AnalysisRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<AnalysisRequest>();
    qRegisterMetaType<AnalysisResult>();
    qRegisterMetaType<AnalysisProgress>();
    m_thread.setObjectName(QStringLiteral("analysis"));
    m_worker = new AnalysisWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &AnalysisRunner::requestRun, m_worker, &AnalysisWorker::run);
    connect(m_worker, &AnalysisWorker::progressed, this, [this](const AnalysisProgress &p) {
        if (m_running)
            emit progressed(p);
    });
    connect(m_worker, &AnalysisWorker::finished, this, &AnalysisRunner::onFinished);
    m_thread.start();
}

AnalysisRunner::~AnalysisRunner()
{
    m_worker->cancel();
    m_thread.quit();
    m_thread.wait();
}

bool AnalysisRunner::start(const AnalysisRequest &request)
{
    if (m_running || !request.source.isValid())
        return false;
    m_running = true;
    m_worker->resetCancel();
    emit runningChanged(true);
    emit started(request);
    emit requestRun(request);
    return true;
}

void AnalysisRunner::cancel()
{
    if (m_running)
        m_worker->cancel();
}

void AnalysisRunner::onFinished(const AnalysisResult &result)
{
    m_running = false;
    emit runningChanged(false);
    emit finished(result);
}

} // namespace oe
