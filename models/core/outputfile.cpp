#include "outputfile.h"

#include "scratchfiles.h"

#include <QFileInfo>
#include <QRandomGenerator>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace idem {

namespace {

// The system's words for what went wrong: errno right after the failing
// call (QFileDevice often reports only "Unknown error" for a full disk).
QString osWords(int err, const QFileDevice& file) {
    if (err != 0)
        return QString::fromLocal8Bit(std::strerror(err));
    return file.errorString();
}

// The same file, untouched since it was noted: a write, a truncation or a
// new file under the old name each change one of these.
bool sameState(const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
           a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
           a.st_ctim.tv_sec == b.st_ctim.tv_sec && a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

}  // namespace

mode_t newFileMode() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (status.open(QIODevice::ReadOnly)) {
        while (!status.atEnd()) {
            const QByteArray line = status.readLine();
            if (line.startsWith("Umask:")) {
                bool ok = false;
                const uint mask = line.mid(6).trimmed().toUInt(&ok, 8);
                if (ok)
                    return 0666 & ~mask;
            }
        }
    }
    return 0644;
}

OutputFile::OutputFile(const QString& path) : path_(path) {
    existed_ = ::lstat(QFile::encodeName(path).constData(), &seen_) == 0;
}

OutputFile::~OutputFile() {
    cancel();
}

bool OutputFile::open(QString* why) {
    cancel();
    refused_ = false;
    const QFileInfo info(path_);
    const QByteArray folder = QFile::encodeName(info.absolutePath());
    // Unnamed: nothing to see or to leave behind until it is linked in.
    const mode_t mode = existed_ ? (seen_.st_mode & 07777) : 0666;
    int fd = ::open(folder.constData(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    if (fd < 0) {
        // A file system without unnamed files: a hidden one beside the path,
        // which a second signal removes (scratchfiles.h).
        QByteArray name = folder + "/." + QFile::encodeName(info.fileName()) + ".XXXXXX.partial";
        errno = 0;
        fd = ::mkostemps(name.data(), int(qstrlen(".partial")), O_CLOEXEC);
        if (fd < 0) {
            *why = QString::fromLocal8Bit(std::strerror(errno));
            return false;
        }
        workPath_ = QFile::decodeName(name);
        scratchHandle_ = scratch::remember(workPath_);
    }
    // The user's result, readable as any file they create; an earlier
    // output keeps its permissions.
    ::fchmod(fd, existed_ ? (seen_.st_mode & 07777) : newFileMode());
    if (!work_.open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle)) {
        *why = work_.errorString();
        ::close(fd);
        cancel();
        return false;
    }
    return true;
}

bool OutputFile::commit(QString* why) {
    refused_ = false;
    if (!work_.isOpen()) {
        *why = QStringLiteral("the file was not opened");
        return false;
    }
    // Buffered bytes are written now, and a failure (a full disk) is seen
    // here, before anything reaches the path.
    errno = 0;
    if (!work_.flush()) {
        *why = osWords(errno, work_);
        cancel();
        return false;
    }
    // On the disk before it takes the name: a crash leaves the old file or
    // the whole new one. A file system without fsync (EINVAL) is not a fault.
    errno = 0;
    if (::fsync(work_.handle()) != 0 && errno != EINVAL && errno != EROFS) {
        *why = osWords(errno, work_);
        cancel();
        return false;
    }
    const bool moved = move(why);
    if (!moved && !workPath_.isEmpty())
        ::unlink(QFile::encodeName(workPath_).constData());
    work_.close();
    scratch::forget(scratchHandle_);
    scratchHandle_ = -1;
    workPath_.clear();
    return moved;
}

// Gives the unnamed work file the name `to`, which must be free (EEXIST).
bool OutputFile::linkUnnamed(const QByteArray& to) {
    const QByteArray self = "/proc/self/fd/" + QByteArray::number(work_.handle());
    if (::linkat(AT_FDCWD, self.constData(), AT_FDCWD, to.constData(), AT_SYMLINK_FOLLOW) == 0)
        return true;
    if (errno != ENOENT)
        return false;
    // No /proc: linking a descriptor itself needs a privilege, and may fail.
    return ::linkat(work_.handle(), "", AT_FDCWD, to.constData(), AT_EMPTY_PATH) == 0;
}

bool OutputFile::move(QString* why) {
    const QByteArray to = QFile::encodeName(path_);
    const auto createdMeanwhile = [&] {
        refused_ = true;
        *why = QStringLiteral(
                   "%1 was created by someone else while idemlab worked; it is left as it is, "
                   "and this output was not written")
                   .arg(path_);
        return false;
    };
    struct stat now {};
    const bool present = ::lstat(to.constData(), &now) == 0;
    if (present && existed_) {
        if (!sameState(now, seen_)) {
            refused_ = true;
            *why = QStringLiteral(
                       "%1 was replaced or changed by someone else while idemlab worked; it is "
                       "left as it is, and this output was not written")
                       .arg(path_);
            return false;
        }
        // Replacing takes a name to rename from.
        if (workPath_.isEmpty()) {
            const QFileInfo info(path_);
            for (int attempt = 0; attempt < 100 && workPath_.isEmpty(); ++attempt) {
                const QString name = info.absolutePath() + QStringLiteral("/.") + info.fileName() +
                                     QStringLiteral(".%1.partial")
                                         .arg(QRandomGenerator::global()->generate() & 0xffffff, 6,
                                              16, QLatin1Char('0'));
                if (linkUnnamed(QFile::encodeName(name)))
                    workPath_ = name;
                else if (errno != EEXIST)
                    break;
            }
            if (workPath_.isEmpty()) {
                *why = QString::fromLocal8Bit(std::strerror(errno));
                return false;
            }
        }
        // Swapped with the earlier output in one step, then checked: what
        // came out is the file seen at the start (a rename moves no
        // content, but sets its ctime), or it is swapped back, so that no
        // moment lies between the check and the replacement.
        const QByteArray from = QFile::encodeName(workPath_);
        if (::renameat2(AT_FDCWD, from.constData(), AT_FDCWD, to.constData(), RENAME_EXCHANGE) ==
            0) {
            struct stat out {};
            const bool same = ::lstat(from.constData(), &out) == 0 && out.st_dev == seen_.st_dev &&
                              out.st_ino == seen_.st_ino && out.st_size == seen_.st_size &&
                              out.st_mtim.tv_sec == seen_.st_mtim.tv_sec &&
                              out.st_mtim.tv_nsec == seen_.st_mtim.tv_nsec;
            if (!same) {
                refused_ = true;
                if (::renameat2(AT_FDCWD, from.constData(), AT_FDCWD, to.constData(),
                                RENAME_EXCHANGE) != 0) {
                    // Not swapped back: that file is kept under the work
                    // name (never removed as a work file), and said.
                    *why = QStringLiteral(
                               "%1 was replaced by someone else while idemlab worked; that file "
                               "is now %2, and this output is at %1")
                               .arg(path_, workPath_);
                    workPath_.clear();
                    return false;
                }
                *why = QStringLiteral(
                           "%1 was replaced or changed by someone else while idemlab worked; it "
                           "is left as it is, and this output was not written")
                           .arg(path_);
                return false;
            }
            ::unlink(from.constData());  // the earlier output
            workPath_.clear();
            return true;
        }
        // Gone meanwhile (ENOENT): the path is free, and taken as such below.
        if (errno != ENOENT) {
            // A file system without RENAME_EXCHANGE: a plain rename.
            if ((errno != EINVAL && errno != ENOSYS) ||
                std::rename(from.constData(), to.constData()) != 0) {
                *why = QString::fromLocal8Bit(std::strerror(errno));
                return false;
            }
            workPath_.clear();
            return true;
        }
    }
    // The path was free (or its file is gone since): nothing may be replaced,
    // down to the moment the name is taken.
    if (workPath_.isEmpty()) {
        if (linkUnnamed(to))
            return true;
        if (errno == EEXIST)
            return createdMeanwhile();
        *why = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    const QByteArray from = QFile::encodeName(workPath_);
    bool moved =
        ::renameat2(AT_FDCWD, from.constData(), AT_FDCWD, to.constData(), RENAME_NOREPLACE) == 0;
    if (!moved && (errno == EINVAL || errno == ENOSYS)) {
        // A file system without RENAME_NOREPLACE: a link takes a free name only.
        moved = ::link(from.constData(), to.constData()) == 0;
        if (moved)
            ::unlink(from.constData());
    }
    if (moved) {
        workPath_.clear();
        return true;
    }
    if (errno == EEXIST)
        return createdMeanwhile();
    *why = QString::fromLocal8Bit(std::strerror(errno));
    return false;
}

void OutputFile::cancel() {
    if (work_.isOpen())
        work_.close();
    if (!workPath_.isEmpty())
        ::unlink(QFile::encodeName(workPath_).constData());
    workPath_.clear();
    scratch::forget(scratchHandle_);
    scratchHandle_ = -1;
}

}  // namespace idem
