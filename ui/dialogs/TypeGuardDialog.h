#pragma once

#include "analysis/SourceRef.h"
#include "guard/GuardPlan.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace oe {

class LatestJob;

// Shape → a mixed-type flag → Guard type…: the type guard of one field (core's GuardSession with
// a bsonType rule, as `outlier-explorer-cli guard --type-of`). The types it may hold start as
// every type seen there but the flag's minority one. Check plans it: the documents that break
// it are counted and listed first (their _id and the types they hold, double-click opens one),
// with the rules of a guard already in place that it keeps and the exact collMod; nothing is
// written before Apply (warn first: the server logs; error: it refuses). Remove takes the
// guard's part out of the validator again. Nothing is converted: the documents listed are left
// as they are (validationLevel moderate) for the user to change.
class TypeGuardDialog : public QDialog
{
    Q_OBJECT
public:
    TypeGuardDialog(const SourceRef &source, const GuardRule &suggested, QWidget *parent = nullptr);

    void check();
    void apply();
    void remove();

    QLineEdit *typesEdit() const { return m_types; }
    QComboBox *actionBox() const { return m_action; }
    QComboBox *levelBox() const { return m_level; }
    QTableWidget *violations() const { return m_violations; }
    QPlainTextEdit *commandView() const { return m_command; }
    QLabel *status() const { return m_status; }
    QPushButton *checkButton() const { return m_check; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *removeButton() const { return m_remove; }
    const GuardPlan &plan() const { return m_plan; }

signals:
    void planned(bool ok);
    void finished(const oe::GuardOutcome &outcome);
    // A listed document double-clicked: its _id (relaxed extended JSON).
    void documentRequested(const oe::SourceRef &source, const QString &idJson);

private:
    GuardRule rule() const;
    GuardRequest request() const;
    void showPlan(const GuardPlan &plan);
    void showOutcome(const GuardOutcome &outcome);
    void setBusy(const QString &status);
    bool takeCollectionsSettings(const GuardPlan &plan);

    SourceRef m_source;
    GuardRule m_suggested;
    QLineEdit *m_types;
    QCheckBox *m_elements;
    QComboBox *m_action;
    QComboBox *m_level;
    bool m_planned = false; // a plan was shown: the boxes are the user's from then on
    QLabel *m_summary;
    QTableWidget *m_violations;
    QPlainTextEdit *m_command;
    QLabel *m_status;
    QPushButton *m_check;
    QPushButton *m_apply;
    QPushButton *m_remove;
    LatestJob *m_job;
    GuardPlan m_plan;
};

} // namespace oe
