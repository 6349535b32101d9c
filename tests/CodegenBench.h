#pragma once

// The generated-code tests' bench (tst_codegen, tst_codegenextract, tst_codegenescape,
// tst_codegenattributes): a scratch folder, the plain fixture's server, the harness folder
// (OE_CODEGEN_HARNESS) and the official drivers packaging/install-codegen-drivers.sh installed.

#include "LiveDocuments.h"

#include <QFileInfo>
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
};
