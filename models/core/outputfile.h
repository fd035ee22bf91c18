// An output written completely or not at all, and never over a file someone
// else put at its path while the tool worked: the bytes go to a work file in
// the path's folder (unnamed where the system allows, so that a crash leaves
// nothing), which takes the path only once every byte is flushed and on the
// disk, and only if the path still holds what it held when the command
// checked it: nothing, or the very same earlier output of the lab's.
#pragma once

#include <QFile>
#include <QString>

#include <sys/stat.h>

namespace idem {

class OutputFile {
public:
    // Notes what `path` holds now: the state the move at the end must find.
    // Made right after the command checked its outputs (cli/outputpaths.h).
    explicit OutputFile(const QString& path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Creates the work file beside the path; false with the system's words.
    bool open(QString* why);
    QFile& device() { return work_; }
    const QString& path() const { return path_; }
    // Flushes, checks and syncs what was written, then moves it to the path:
    // without replacing anything when the path was free, replacing only the
    // very file noted when it held one. False with the system's words, or
    // with a whole sentence when the path changed hands meanwhile (refused()).
    // Either way the work file is gone and the path holds what it held.
    bool commit(QString* why);
    // Drops what was written; the path keeps what it had.
    void cancel();
    // commit() found a file at the path that is not the one noted: bad
    // input (someone else's file), not a failure of the disk.
    bool refused() const { return refused_; }

private:
    bool move(QString* why);
    bool linkUnnamed(const QByteArray& to);

    QString path_;
    QString workPath_;  // empty for an unnamed work file (O_TMPFILE)
    QFile work_;
    bool existed_ = false;
    struct stat seen_ {};
    bool refused_ = false;
    int scratchHandle_ = -1;  // scratchfiles.h: removed by a second signal
};

// The mode a new file of this process gets (0666 less the umask), read
// without changing the umask, which other threads may be using.
mode_t newFileMode();

}  // namespace idem
