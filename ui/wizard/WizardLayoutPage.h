#pragma once

#include "split/SplitConfig.h"

#include <QWizardPage>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace oe {

class LatestJob;
class MigrationWizard;

// 4. Layout: the overflow collection and the names of the link, page, items, flag, count and
// pages fields, and the page size; presets from the seed texts; validated as you type (legal
// names, no clash between them, none already used by the analysed documents) and, live, on the
// server: the overflow collection empty or already this field's, no other run in the way.
class WizardLayoutPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardLayoutPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    QComboBox *presetBox() const { return m_preset; }
    QLineEdit *edit(const QString &name) const; // "overflow", "link", "page", "items", …
    QString problemText() const;
    bool isCheckingServer() const { return m_checking; }

private:
    void applyPreset(int index);
    void show(const SplitConfig &config);
    SplitConfig layout() const;
    QStringList problems() const;
    QStringList notes() const;
    void changed();
    void checkOnServer(); // the layout's pre-flight checks, off the UI thread
    void showProblems();

    MigrationWizard *m_wizard;
    QComboBox *m_preset;
    QLabel *m_presetNote;
    QLineEdit *m_overflow, *m_link, *m_page, *m_items, *m_flag, *m_count, *m_pages;
    QSpinBox *m_pageSize;
    QLabel *m_problems;
    QLabel *m_serverStatus;
    QTimer *m_debounce;
    LatestJob *m_serverCheck;
    QString m_serverProblem; // what the server check found for the current layout
    bool m_checking = false;
    bool m_setting = false;
};

} // namespace oe
