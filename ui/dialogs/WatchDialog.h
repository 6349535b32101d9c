#pragma once

#include "analysis/SourceRef.h"
#include "watch/WatchEnd.h"
#include "watch/WatchOptions.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QSystemTrayIcon;
class QTableWidget;

namespace oe {

class WatchRunner;

// Analysis → Watch… on a collection: the growth watch (core's CollectionWatch, as
// `outlier-explorer-cli watch`) in the background: the thresholds (the size threshold and the
// array's keep, from the source's state), Start and Stop, each document crossing as a row as it
// happens (newest first), a desktop notification when one does, and a double-click that opens
// the document. When the collection is dropped or renamed the watch ends, and says so.
class WatchDialog : public QDialog
{
    Q_OBJECT
public:
    WatchDialog(const SourceRef &source, std::uint64_t sizeThreshold, const QString &field,
                std::uint64_t keep, QWidget *parent = nullptr);
    ~WatchDialog() override;

    void start();
    void stop();
    bool isWatching() const;
    WatchOptions options() const;

    QTableWidget *events() const { return m_events; }
    QLabel *status() const { return m_status; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }

signals:
    // A row double-clicked: the document's _id (relaxed extended JSON).
    void documentRequested(const oe::SourceRef &source, const QString &idJson);
    // What a crossing said on the desktop (or in the window, without a notification area).
    void notified(const QString &text);

private:
    void addEvent(const WatchEvent &event);
    void finished(const WatchEnd &end);
    void notify(const WatchEvent &event);
    void updateButtons();

    SourceRef m_source;
    QSpinBox *m_size;
    QLineEdit *m_field;
    QSpinBox *m_keep;
    QSpinBox *m_interval;
    QCheckBox *m_desktop;
    QPushButton *m_start;
    QPushButton *m_stop;
    QTableWidget *m_events;
    QLabel *m_status;
    WatchRunner *m_runner;
    QSystemTrayIcon *m_tray = nullptr;
};

} // namespace oe
