// The file a run works in. Without a path it is a temporary file; with one,
// the run works in a new file beside it and moves it into place only at the
// end, so a crash, a kill or a second run on the same path never leaves a
// half-written database, and a file this program did not make is never
// replaced.
#pragma once

#include <QJsonObject>
#include <QString>

#include <memory>

class QTemporaryDir;

namespace idem {

class RunDatabase {
public:
    // "IDLB": PRAGMA application_id of every run database this program keeps.
    static constexpr int kApplicationId = 0x49444C42;

    RunDatabase();
    ~RunDatabase();
    RunDatabase(const RunDatabase&) = delete;
    RunDatabase& operator=(const RunDatabase&) = delete;

    // target empty: a temporary folder. False with a message; *badInput tells
    // a refused path (one that exists and is not ours, or needs --force)
    // from a failure of the disk.
    bool prepare(const QString& target, bool replace, QString* error, bool* badInput);
    // Where the run's connections open the database.
    QString workPath() const { return workPath_; }
    QString target() const { return target_; }
    // Every connection is closed: leave the file whole on its own
    // (journal_mode=DELETE, no -wal beside it), stamp it as a run database,
    // and move it to the target.
    bool publish(const QJsonObject& config, QString* error, bool* badInput);

    // A file that a run of this program left (its application id and its
    // idemlab_run table), read without changing it or making anything
    // beside it (no -wal or -shm, also for someone else's WAL database).
    static bool isRunDatabase(const QString& path);

    // Where a run without a target keeps its database: in memory (/dev/shm)
    // when the system has it, else the temporary folder ($TMPDIR, /tmp).
    // $TMPDIR set by the user wins. A run's file is written without pause
    // and removed at its end: on a disk, removing it waits for the disk
    // (a file system that discards freed blocks waited 4-8 ms a file), and
    // the window removes one whenever a run is replaced.
    static QString scratchFolder();
    // Removes what runs of processes that ended without tidying up (killed,
    // or a session that ended) left in the scratch folder: in the folders of
    // this user that hold a run's alive.lock and whose process is gone, the
    // files a run makes, then the folder if nothing else is in it (a folder
    // of the user's named alike has no alive.lock, and stays). Done once per
    // process, at its first run's start. A run holds a lock on its folder's
    // alive.lock while it lives: its folder stays even where its process id
    // means nothing (a process in another PID namespace, a container sharing
    // /dev/shm).
    static void removeLeftovers();

private:
    void removeWorkFiles();

    std::unique_ptr<QTemporaryDir> tempDir_;
    QString target_;
    QString workPath_;
    bool replace_ = false;
    bool published_ = false;
    int scratchHandle_ = -1;  // scratchfiles.h: removed by a second signal
    int aliveLock_ = -1;      // the folder's alive.lock, locked while the run lives
};

}  // namespace idem
