#pragma once

#include "analysis/SourceRef.h"
#include "remedy/Remedy.h"
#include "remedy/RewriteConfig.h"
#include "remedy/RewriteReport.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QFormLayout;
class QLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QListWidget;
class QTableWidget;

namespace oe {

class ExtractOptionsBox;
class LatestJob;

// Shape → a flagged field → Rewrite…: the in-place rewrite of the field (core's RewriteSession,
// as `outlier-explorer-cli rewrite`) by any remedy of the registry (RemedyRegistry) that
// rewrites one field, or, for a sparse family, the family's. Preview lists every
// change and every value it cannot rewrite before anything is written; Apply rewrites,
// journaled (progress, Cancel stops after the batch: Apply again resumes); Verify checks it;
// Roll back puts the values back (those the application rewrote since are kept, listed).
class RewriteDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Action
    {
        Preview,
        Apply,
        Verify,
        Rollback
    };
    RewriteDialog(const SourceRef &source, const RewriteConfig &suggested,
                  QWidget *parent = nullptr);
    ~RewriteDialog() override; // a step still running stops after its batch

    void run(Action action);
    // Apply of the interrupted run the preview found in the journal, as it was recorded (its
    // fields, its names), whatever the dialog shows now.
    void resume();
    void cancel();
    RewriteConfig config() const;

    // The remedies, in the registry's order (a remedy of another scope listed, disabled).
    QComboBox *kindBox() const { return m_kind; }
    QLineEdit *newNameEdit() const { return m_newName; }
    QComboBox *typeBox() const { return m_type; }
    QTableWidget *rows() const { return m_rows; }
    // The attribute rewrite's fields, each checked to be moved (hidden for the other kinds).
    QListWidget *fieldList() const { return m_fields; }
    QLabel *status() const { return m_status; }
    QPushButton *button(Action action) const;
    QPushButton *resumeButton() const { return m_resume; }
    const RewriteStep &lastStep() const { return m_last; }

signals:
    void finished(oe::RewriteDialog::Action action, bool ok);

private:
    void start(Action action, const RewriteConfig &chosen);
    void showStep(Action action, const RewriteStep &step);
    void showInterrupted(const RewriteStep &step, QStringList *lines);
    void showRows(const std::vector<RewriteRow> &rows);
    void setRunning(bool running);
    void updateKind();
    const Remedy &chosenRemedy() const;

    SourceRef m_source;
    RewriteConfig m_suggested;
    QComboBox *m_kind;
    QComboBox *m_type;
    QFormLayout *m_form = nullptr;
    QLayout *m_names = nullptr; // the key and value names' row
    QLineEdit *m_keyName;
    QLineEdit *m_valueName;
    QLineEdit *m_newName;
    ExtractOptionsBox *m_extract;
    QListWidget *m_fields;
    QTableWidget *m_rows;
    QLabel *m_status;
    QProgressBar *m_progress;
    QPushButton *m_preview, *m_apply, *m_verify, *m_rollback, *m_resume, *m_cancel;
    LatestJob *m_job;
    // The running step's own stop flag: Cancel stops it after its batch, and its result (what
    // it did, "stopped") still comes back before the buttons do.
    std::shared_ptr<std::atomic<bool>> m_stop;
    RewriteStep m_last;
    std::optional<RewriteConfig> m_interrupted; // the journal's, as the last preview found it
};

} // namespace oe
