#include "wizard/WizardSourcePage.h"
#include "split/SplitConfig.h"

#include "wizard/MigrationWizard.h"
#include "wizard/WizardRemedy.h"
#include "workspace/SourceState.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace oe {

WizardSourcePage::WizardSourcePage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_what(new QLabel(this)),
      m_outLabel(new QLabel(tr("&Write the split dump into:"), this)), m_outDir(new QLineEdit(this))
{
    setTitle(tr("Source"));
    setSubTitle(tr("What the split reads and where it writes."));
    m_what->setWordWrap(true);
    m_what->setTextFormat(Qt::RichText);
    m_outLabel->setBuddy(m_outDir);
    m_outDir->setToolTip(tr("A new folder for mongorestore: the collection, its overflow "
                            "collection and the migration journal, one .bson file each."));
    auto *browse = new QPushButton(tr("B&rowse…"), this);
    m_browse = browse;
    auto *row = new QHBoxLayout;
    row->addWidget(m_outDir, 1);
    row->addWidget(browse);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_what);
    layout->addSpacing(12);
    layout->addWidget(m_outLabel);
    layout->addLayout(row);
    layout->addStretch(1);
    connect(browse, &QPushButton::clicked, this, &WizardSourcePage::browse);
    connect(m_outDir, &QLineEdit::textChanged, this, &QWizardPage::completeChanged);
    connect(m_wizard, &MigrationWizard::outDirChanged, this, [this](const QString &dir) {
        if (m_outDir->text() != dir)
            m_outDir->setText(dir);
    });
}

void WizardSourcePage::initializePage()
{
    const SourceRef source = m_wizard->source();
    const bool live = m_wizard->isLive();
    m_outLabel->setVisible(!live);
    m_outDir->setVisible(!live);
    m_browse->setVisible(!live);
    // The other outliers' remedies, when the analysis found some (chosen on the next page).
    const bool others =
        m_wizard->state() && !WizardRemedy::candidates(m_wizard->state()->analysis()).empty();
    if (live) {
        m_what->setText(
            tr("<b>%1</b><br>The split rewrites this collection in place: pages first, then each "
               "document trimmed under a guard, every step recorded in the journal collection "
               "<i>%2</i>, so it can be resumed, verified and rolled back from any machine.")
                .arg(source.displayName().toHtmlEscaped(),
                     QString(source.collectionName() + SplitConfig::journalSuffix())
                         .toHtmlEscaped()) +
            (others ? tr("<br>The other outliers' remedies rewrite it in place the same way, "
                         "journaled in <i>%1</i>.")
                          .arg(QString(source.collectionName() + RewriteConfig::journalSuffix())
                                   .toHtmlEscaped())
                    : QString()));
        return;
    }
    const QFileInfo dump(source.dumpPath);
    m_what->setText(tr("<b>%1</b><br>A mongodump file: it is read, never changed. The split "
                       "writes a new dump folder (all or nothing) that mongorestore loads.")
                        .arg(dump.absoluteFilePath().toHtmlEscaped()) +
                    (others ? tr("<br>The other outliers' remedies rewrite a live collection: "
                                 "restore the dump, or open the collection it came from.")
                            : QString()));
    if (m_outDir->text().isEmpty())
        m_outDir->setText(m_wizard->outDir().isEmpty()
                              ? dump.absolutePath() + QLatin1Char('/') + source.collectionName() +
                                    QStringLiteral("_split")
                              : m_wizard->outDir());
}

bool WizardSourcePage::isComplete() const
{
    return m_wizard->source().isValid() &&
           (m_wizard->isLive() || !m_outDir->text().trimmed().isEmpty());
}

bool WizardSourcePage::validatePage()
{
    if (!m_wizard->isLive())
        m_wizard->setOutDir(QFileInfo(m_outDir->text().trimmed()).absoluteFilePath());
    return true;
}

void WizardSourcePage::browse()
{
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Write the split dump into"), m_outDir->text());
    if (!dir.isEmpty())
        m_outDir->setText(dir);
}

} // namespace oe
