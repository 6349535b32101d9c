#include "wizard/WizardFinishPage.h"

#include "codegen/CodeGenerator.h"
#include "jobs/LatestJob.h"
#include "jobs/MigrationRunner.h"
#include "output/StagedOutput.h"
#include "report/ReportWriter.h"
#include "widgets/ReportExporter.h"
#include "wizard/MigrationWizard.h"
#include "workspace/SourceState.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace oe {

WizardFinishPage::WizardFinishPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_summary(new QLabel(this)),
      m_language(new QComboBox(this)), m_code(new QPlainTextEdit(this)), m_status(new QLabel(this)),
      m_job(new LatestJob(this)), m_reporter(new ReportExporter(this))
{
    setTitle(tr("Finish"));
    setSubTitle(tr("Keep a record, and change the application's read and write paths."));
    m_summary->setWordWrap(true);
    m_code->setReadOnly(true);
    m_code->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    for (const CodeLanguage language :
         {CodeLanguage::JavaScript, CodeLanguage::Python, CodeLanguage::Java, CodeLanguage::C,
          CodeLanguage::Go, CodeLanguage::Mongosh})
        m_language->addItem(codelanguage::label(language), int(language));
    auto *reports = new QPushButton(tr("Export CSV &reports…"), this);
    auto *log = new QPushButton(tr("Save the migration lo&g…"), this);
    auto *report = new QPushButton(tr("Export the r&eport (HTML, PDF)…"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(reports);
    buttons->addWidget(log);
    buttons->addWidget(report);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    auto *codeRow = new QHBoxLayout;
    auto *languageLabel = new QLabel(tr("The application after the split, in &language:"), this);
    languageLabel->setBuddy(m_language);
    auto *saveCode = new QPushButton(tr("Save the &code…"), this);
    codeRow->addWidget(languageLabel);
    codeRow->addWidget(m_language);
    codeRow->addStretch(1);
    codeRow->addWidget(saveCode);
    layout->addLayout(codeRow);
    layout->addWidget(m_code, 1);
    connect(m_language, &QComboBox::currentIndexChanged, this, &WizardFinishPage::showCode);
    connect(saveCode, &QPushButton::clicked, this, [this] { this->saveCode(); });
    connect(reports, &QPushButton::clicked, this, [this] { exportReports(); });
    connect(log, &QPushButton::clicked, this, [this] { saveLog(); });
    connect(report, &QPushButton::clicked, this, [this] { exportReport(); });
    connect(m_reporter, &ReportExporter::finished, this, [this](bool ok, const QString &message) {
        m_status->setText(ok ? tr("Report written to %1.").arg(message)
                             : tr("The report could not be written: %1").arg(message));
        emit reportExported(ok, message);
    });
}

void WizardFinishPage::initializePage()
{
    const SplitConfig config = m_wizard->runner()->config();
    m_summary->setText(tr("%1 split at %2 elements of %3; the rest in %4.")
                           .arg(m_wizard->source().displayName(), QString::number(config.keep),
                                config.field, config.overflowCollection));
    showCode();
}

void WizardFinishPage::showCode()
{
    m_code->setPlainText(CodeGenerator::generate(CodeLanguage(m_language->currentData().toInt()),
                                                 m_wizard->runner()->config()));
}

void WizardFinishPage::exportReports(const QString &chosen)
{
    const QString directory =
        chosen.isEmpty() ? QFileDialog::getExistingDirectory(this, tr("Export CSV reports into"))
                         : chosen;
    if (directory.isEmpty() || !m_wizard->state())
        return;
    const AnalysisResult result = m_wizard->state()->result();
    m_job->start(
        [result, directory] {
            QString error;
            ReportWriter::write(directory, ReportWriter::Report::of(result), &error);
            return error;
        },
        [this, directory](const QString &error) {
            m_status->setText(
                error.isEmpty()
                    ? tr("Reports written to %1.").arg(QDir::toNativeSeparators(directory))
                    : tr("The reports could not be written: %1").arg(error));
            emit exported(error.isEmpty(), error.isEmpty() ? directory : error);
        });
}

void WizardFinishPage::saveLog(const QString &chosen)
{
    const QString file = chosen.isEmpty()
                             ? QFileDialog::getSaveFileName(this, tr("Save the migration log"),
                                                            m_wizard->source().collectionName() +
                                                                QStringLiteral("_migration.log"),
                                                            tr("Log files (*.log *.txt)"))
                             : chosen;
    if (file.isEmpty())
        return;
    saveText(file, m_wizard->log().toUtf8() + '\n', tr("Log"));
}

void WizardFinishPage::exportReport(const QString &file)
{
    if (!m_wizard->state())
        return;
    ReportOptions options;
    options.pageSize = ReportExporter::localPageSize();
    options.layout = m_wizard->runner()->config();
    options.migrationLog = m_wizard->log();
    const MigrationOutcome &verified = m_wizard->outcome(MigrationOutcome::Step::Verify);
    if (verified.step == MigrationOutcome::Step::Verify && verified.ok)
        options.verification = tr("Verified: %1 documents checked, %2 matching, %3 mismatches.")
                                   .arg(verified.verify.checked)
                                   .arg(verified.verify.matching)
                                   .arg(verified.verify.mismatches);
    m_reporter->exportReport(m_wizard->state()->result(), options, file);
}

void WizardFinishPage::saveCode(const QString &chosen)
{
    const auto language = CodeLanguage(m_language->currentData().toInt());
    const QString file =
        chosen.isEmpty()
            ? QFileDialog::getSaveFileName(
                  this, tr("Save the code"),
                  CodeGenerator::fileName(language, m_wizard->runner()->config()),
                  tr("%1 (*.%2)")
                      .arg(codelanguage::label(language), codelanguage::extension(language)))
            : chosen;
    if (!file.isEmpty())
        saveText(file, m_code->toPlainText().toUtf8(), tr("Code"));
}

void WizardFinishPage::saveText(const QString &file, const QByteArray &bytes, const QString &what)
{
    // Written under a temporary name and renamed into place: never a half-written file.
    SourceError error;
    const bool ok = StagedOutput::writeFile(file, bytes, &error);
    m_status->setText(ok ? tr("%1 written to %2.").arg(what, QDir::toNativeSeparators(file))
                         : tr("%1 could not be written to %2: %3")
                               .arg(what, QDir::toNativeSeparators(file), error.message));
}

} // namespace oe
