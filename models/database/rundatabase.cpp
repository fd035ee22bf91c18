#include "rundatabase.h"

#include "outofmemory.h"
#include "outputfile.h"
#include "scratchfiles.h"
#include "sqliteconnection.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QUrl>

#include <sqlite3.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace idem {

namespace {

const char* const kSidecars[] = {"-wal", "-shm", "-journal"};

QString osError() {
    return QString::fromLocal8Bit(std::strerror(errno));
}

quint32 bigEndian32(const QByteArray& b, int at) {
    return quint32(uchar(b[at])) << 24 | quint32(uchar(b[at + 1])) << 16 |
           quint32(uchar(b[at + 2])) << 8 | quint32(uchar(b[at + 3]));
}

QByteArray head(const QString& path, qint64 size) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(size) : QByteArray();
}

// Whether the file `database + suffix` is that database's own journal, WAL or
// shared-memory index, by the headers SQLite writes (sqlite.org/fileformat2
// and walformat): only then may it go with the database it belongs to.
// A file of anyone else's under that name stays.
bool isSidecarOf(const QString& database, const char* suffix) {
    const QString path = database + QLatin1String(suffix);
    const QFileInfo info(path);
    if (!info.exists() || info.isSymLink() || !info.isFile())
        return false;
    const QByteArray db = head(database, 100);
    if (db.size() < 100 || !db.startsWith("SQLite format 3"))
        return false;
    const quint32 rawPage = quint32(uchar(db[16])) << 8 | quint32(uchar(db[17]));
    const quint32 pageSize = rawPage == 1 ? 65536 : rawPage;
    const bool walMode = db[18] == 2 && db[19] == 2;
    const QByteArray side = head(path, 32);
    const QByteArray which(suffix);
    if (which == "-journal") {
        // Empty (journal_mode=TRUNCATE) or a rollback journal's header.
        static const uchar kMagic[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
        return !walMode &&
               (info.size() == 0 ||
                (side.size() >= 28 && std::memcmp(side.constData(), kMagic, sizeof kMagic) == 0 &&
                 bigEndian32(side, 24) == pageSize));
    }
    if (!walMode)
        return false;
    if (info.size() == 0)
        return true;  // emptied by a checkpoint
    if (which == "-wal") {
        return side.size() >= 32 && (bigEndian32(side, 0) & ~1u) == 0x377f0682 &&
               bigEndian32(side, 4) == 3007000 && bigEndian32(side, 8) == pageSize;
    }
    // -shm: the index's header, in the machine's own byte order.
    quint32 version = 0;
    if (side.size() < 16)
        return false;
    std::memcpy(&version, side.constData(), sizeof version);
    return version == 3007000;
}

}  // namespace

RunDatabase::RunDatabase() = default;

RunDatabase::~RunDatabase() {
    if (!published_ && !target_.isEmpty())
        removeWorkFiles();
    scratch::forget(scratchHandle_);
    if (aliveLock_ >= 0)
        ::close(aliveLock_);
}

void RunDatabase::removeWorkFiles() {
    if (workPath_.isEmpty())
        return;
    QFile::remove(workPath_);
    for (const char* suffix : kSidecars) QFile::remove(workPath_ + QLatin1String(suffix));
}

bool RunDatabase::isRunDatabase(const QString& path) {
    // Immutable: read as it lies, without locks, and without the -wal and
    // -shm files SQLite would otherwise make beside a WAL-mode database
    // (and leave there: a read-only connection cannot remove them).
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    const QByteArray uri = "file:" + QUrl::toPercentEncoding(absolute, "/") + "?immutable=1";
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
        SQLITE_OK) {
        sqlite3_close(db);
        return false;
    }
    bool ours = false;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW) {
        ours = sqlite3_column_int(s, 0) == kApplicationId;
    }
    sqlite3_finalize(s);
    if (ours) {
        ours = sqlite3_prepare_v2(db, "SELECT value FROM idemlab_run WHERE key = 'format'", -1, &s,
                                  nullptr) == SQLITE_OK &&
               sqlite3_step(s) == SQLITE_ROW;
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return ours;
}

QString RunDatabase::scratchFolder() {
    // $TMPDIR as the user wrote it: QDir::tempPath() makes a folder that does
    // not exist an empty path, and the run would then work in the root folder.
    const QString tmpdir = qEnvironmentVariable("TMPDIR");
    if (!tmpdir.isEmpty())
        return QDir::cleanPath(QDir(tmpdir).absolutePath());
    const QFileInfo shm(QStringLiteral("/dev/shm"));
    if (shm.isDir() && shm.isWritable())
        return shm.filePath();
    return QStringLiteral("/tmp");
}

void RunDatabase::removeLeftovers() {
    // Named idemlab-run-PID-XXXXXX (see prepare).
    const QDir scratch(scratchFolder());
    const QString prefix = QStringLiteral("idemlab-run-");
    for (const QFileInfo& entry :
         scratch.entryInfoList({prefix + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isNumber = false;
        const qint64 pid = entry.fileName()
                               .mid(prefix.size())
                               .section(QLatin1Char('-'), 0, 0)
                               .toLongLong(&isNumber);
        if (!isNumber || pid <= 0 || pid == qint64(getpid()) || entry.ownerId() != getuid())
            continue;
        // Only a folder a run made holds its alive.lock: a folder of the
        // user's that happens to be named alike is not ours to remove. A
        // live run's lock is held, whatever its process id looks like from
        // here.
        const int lock = ::open(QFile::encodeName(entry.filePath() + QStringLiteral("/alive.lock")),
                                O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (lock < 0)
            continue;
        const bool held = flock(lock, LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK;
        ::close(lock);
        if (held)
            continue;
        if (kill(pid_t(pid), 0) == -1 && errno == ESRCH) {
            // What a run puts there, by name; anything else keeps the folder.
            const QDir folder(entry.filePath());
            QFile::remove(folder.filePath(QStringLiteral("run.sqlite")));
            for (const char* suffix : kSidecars)
                QFile::remove(
                    folder.filePath(QStringLiteral("run.sqlite") + QLatin1String(suffix)));
            QFile::remove(folder.filePath(QStringLiteral("alive.lock")));
            folder.rmdir(folder.path());
        }
    }
}

bool RunDatabase::prepare(const QString& target, bool replace, QString* error, bool* badInput) {
    *badInput = false;
    replace_ = replace;
    if (target.isEmpty()) {
        static std::once_flag tidied;
        std::call_once(tidied, &RunDatabase::removeLeftovers);
        tempDir_ = std::make_unique<QTemporaryDir>(
            scratchFolder() + QStringLiteral("/idemlab-run-%1-XXXXXX").arg(getpid()));
        if (!tempDir_->isValid()) {
            *error = QStringLiteral("cannot create a temporary folder in %1: %2")
                         .arg(QDir::toNativeSeparators(scratchFolder()), tempDir_->errorString());
            return false;
        }
        workPath_ = tempDir_->filePath(QStringLiteral("run.sqlite"));
        scratchHandle_ = scratch::remember(workPath_, tempDir_->path());
        // Held until this run ends (removeLeftovers); dropped with the
        // process however it ends.
        aliveLock_ = ::open(QFile::encodeName(tempDir_->filePath(QStringLiteral("alive.lock"))),
                            O_CREAT | O_RDWR | O_CLOEXEC, 0600);
        if (aliveLock_ >= 0)
            flock(aliveLock_, LOCK_SH);
        return true;
    }
    const QFileInfo info(target);
    *badInput = true;
    if (info.isSymLink()) {
        *error =
            QStringLiteral("--db %1 is a symbolic link; give the path of a file, not of a link")
                .arg(target);
        return false;
    }
    if (info.isDir()) {
        *error = QStringLiteral("--db %1 is a folder; give a file path").arg(target);
        return false;
    }
    if (info.exists()) {
        if (!isRunDatabase(target)) {
            *error = QStringLiteral(
                         "--db %1 already exists and is not a database of an earlier run; "
                         "it is left as it is: give a new file name")
                         .arg(target);
            return false;
        }
        if (!replace) {
            *error = QStringLiteral(
                         "--db %1 holds the database of an earlier run; add --force to replace "
                         "it, or give a new file name")
                         .arg(target);
            return false;
        }
    }
    *badInput = false;
    const QDir dir = info.absoluteDir();
    if (!dir.exists()) {
        *error = QStringLiteral("cannot write the database %1: the folder %2 does not exist")
                     .arg(target, dir.path());
        return false;
    }
    // The work file sits beside the target, so that moving it there is one
    // rename on one file system.
    QTemporaryFile work(dir.filePath(QStringLiteral(".%1.XXXXXX.partial").arg(info.fileName())));
    work.setAutoRemove(false);
    if (!work.open()) {
        *error = QStringLiteral("cannot write the database %1: %2").arg(target, work.errorString());
        return false;
    }
    // A temporary file is private (0600); the database is the user's
    // result, which others may read as any file the user creates.
    ::fchmod(work.handle(), newFileMode());
    workPath_ = work.fileName();
    target_ = target;
    scratchHandle_ = scratch::remember(workPath_);
    return true;
}

bool RunDatabase::publish(const QJsonObject& config, QString* error, bool* badInput) {
    *badInput = false;
    if (target_.isEmpty())
        return true;  // a temporary file goes with the run
    if (memory::allocationFailed()) {
        *error =
            QStringLiteral("cannot write the database %1: %2").arg(target_, memory::kOutOfMemory);
        return false;
    }
    {
        SqliteConnection c(workPath_, QStringLiteral("publish"));
        const QString json =
            QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact));
        const QList<QPair<QString, QVariantList>> steps{
            {QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"), {}},
            {QStringLiteral("PRAGMA journal_mode = DELETE"), {}},
            {QStringLiteral("PRAGMA application_id = %1").arg(kApplicationId), {}},
            {QStringLiteral(R"(CREATE TABLE IF NOT EXISTS idemlab_run (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
))"),
             {}},
            {QStringLiteral(R"(INSERT OR REPLACE INTO idemlab_run (key, value)
VALUES ('format', 'idemlab-run-database'), ('config', ?))"),
             {json}},
        };
        for (const auto& [sql, params] : steps) {
            const SqlResult r = c.exec(sql, params);
            if (!r.ok) {
                *error =
                    QStringLiteral("cannot finish the database %1: %2").arg(target_, r.errorText());
                return false;
            }
        }
    }
    if (QFileInfo::exists(target_)) {
        if (!replace_ || !isRunDatabase(target_)) {
            *badInput = true;
            *error = QStringLiteral(
                         "--db %1 was created by someone else while this run worked; it is left "
                         "as it is, and this run's database is not kept")
                         .arg(target_);
            return false;
        }
        // An earlier run's journal beside the file would be applied to ours;
        // a file that is not its journal is someone else's, and stays.
        for (const char* suffix : kSidecars) {
            if (isSidecarOf(target_, suffix))
                QFile::remove(target_ + QLatin1String(suffix));
        }
        if (std::rename(QFile::encodeName(workPath_).constData(),
                        QFile::encodeName(target_).constData()) != 0) {
            *error = QStringLiteral("cannot replace %1: %2").arg(target_, osError());
            return false;
        }
    } else if (::renameat2(AT_FDCWD, QFile::encodeName(workPath_).constData(), AT_FDCWD,
                           QFile::encodeName(target_).constData(), RENAME_NOREPLACE) != 0) {
        if (errno == EEXIST) {
            *badInput = true;
            *error = QStringLiteral(
                         "--db %1 was created by someone else while this run worked; it is left "
                         "as it is")
                         .arg(target_);
        } else {
            *error = QStringLiteral("cannot move the database to %1: %2").arg(target_, osError());
        }
        return false;
    }
    published_ = true;
    scratch::forget(scratchHandle_);
    scratchHandle_ = -1;
    workPath_ = target_;
    return true;
}

}  // namespace idem
