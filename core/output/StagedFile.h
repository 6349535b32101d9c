#pragma once

#include <QByteArray>
#include <QIODevice>

namespace oe {

// The device StagedOutput hands out: buffered writes to a file descriptor it owns, keeping the
// system's reason for the first failed write (QFile reports a short write, e.g. at `ulimit -f`,
// as "Unknown error"). After a failure every write fails.
class StagedFile : public QIODevice
{
public:
    explicit StagedFile(int fd);
    ~StagedFile() override;

    bool isSequential() const override { return true; }
    // Writes out the buffer; false with errorNumber() set when the system refused.
    bool flushBuffer();
    int handle() const { return m_fd; }
    int errorNumber() const { return m_errno; }
    // Closes the descriptor; false with errorNumber() set if that failed.
    bool closeFile();

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override;

private:
    bool writeOut(const char *data, qint64 size);

    int m_fd;
    int m_errno = 0;
    QByteArray m_buffer;
};

} // namespace oe
