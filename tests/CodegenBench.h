#pragma once

// The generated-code tests' bench (tst_codegen, tst_codegenextract, tst_codegenescape,
// tst_codegenattributes): a scratch folder, the plain fixture's server, the harness folder
// (OE_CODEGEN_HARNESS) and the official drivers packaging/install-codegen-drivers.sh installed.

#include "LiveDocuments.h"

#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

class CodegenBench
{
protected:
    QTemporaryDir m_dir;
    QString m_uri, m_drivers, m_harness;

    // Empty when the bench is ready; else what is missing.
    QString openBench()
    {
        if (!m_dir.isValid())
            return QStringLiteral("no scratch folder");
        m_uri = fixtures::liveUri();
        if (m_uri.isEmpty())
            return QStringLiteral("no live server fixture (OE_LIVE_DIR/plain/env)");
        m_harness = qEnvironmentVariable("OE_CODEGEN_HARNESS");
        m_drivers = fixtures::codegenDrivers();
        if (!QFileInfo::exists(m_drivers))
            return QStringLiteral("no drivers: packaging/install-codegen-drivers.sh");
        return {};
    }
    // Runs a built harness with `script` on its standard input: its standard output (what it
    // printed on standard error is a warning when it fails; a harness that hangs aborts).
    static QString runHarnessProgram(const QString &program, const QStringList &args,
                                     const QProcessEnvironment &env, const QString &script)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(program, args);
        p.write(script.toUtf8());
        p.closeWriteChannel();
        if (!p.waitForFinished(600000))
            qFatal("harness hung");
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            qWarning("harness failed: %s", p.readAllStandardError().constData());
        return QString::fromUtf8(p.readAllStandardOutput());
    }
};
