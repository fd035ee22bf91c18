#include "outputpaths.h"

#include "cli.h"
#include "labfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace idem::cli {

namespace {

PathProblem refusedPath(const QString& message) {
    return {BadInput, message};
}

// Creates and removes a file in `folder`, as OutputFile will; the system's
// words when that is impossible.
QString probeFolder(const QString& folder) {
    const QByteArray probe =
        QFile::encodeName(folder) + "/.idemlab-write-test-" + QByteArray::number(getpid());
    const int fd = ::open(probe.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == EEXIST)
            return {};  // something of ours is there: the folder takes files
        return QString::fromLocal8Bit(std::strerror(errno));
    }
    ::close(fd);
    ::unlink(probe.constData());
    return {};
}

// The same file on disk: one inode, whatever the names (a hard link).
bool sameFile(const QString& a, const QString& b) {
    struct stat sa {
    }, sb{};
    return ::stat(QFile::encodeName(a).constData(), &sa) == 0 &&
           ::stat(QFile::encodeName(b).constData(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

PathProblem checkOne(const NamedPath& out, bool force) {
    if (out.path.isEmpty())
        return refusedPath(
            QStringLiteral("%1 needs a file path, not an empty one").arg(out.option));
    const QFileInfo info(out.path);
    if (info.isSymLink()) {
        return refusedPath(QStringLiteral("%1 %2 is a symbolic link; idemlab does not replace the "
                                          "file a link points to: give the real path")
                               .arg(out.option, out.path));
    }
    if (info.isDir()) {
        return refusedPath(
            QStringLiteral("%1 %2 is a directory; give a file path").arg(out.option, out.path));
    }
    if (info.exists() && !info.isFile()) {
        return refusedPath(QStringLiteral("%1 %2 is not a regular file (a device, pipe or socket); "
                                          "give a file path")
                               .arg(out.option, out.path));
    }
    // The rule --db follows, for every output: a file the lab did not write
    // is never replaced; an earlier output of the lab's only with --force.
    if (info.exists() && !out.database) {
        if (!labfiles::writtenByLab(out.path)) {
            return refusedPath(
                QStringLiteral("%1 %2 already exists and was not written by idemlab; "
                               "it is left as it is: give a new file name")
                    .arg(out.option, out.path));
        }
        if (!force) {
            return refusedPath(
                QStringLiteral("%1 %2 holds an earlier output of idemlab; add --force "
                               "to replace it, or give a new file name")
                    .arg(out.option, out.path));
        }
    }
    if (info.exists() && !info.isWritable()) {
        return {
            Failure,
            QStringLiteral("cannot write %1 %2: the file is read-only").arg(out.option, out.path)};
    }
    const QFileInfo folder(info.absolutePath());
    if (!folder.exists()) {
        return {Failure,
                QStringLiteral("cannot write %1 %2: the folder %3 does not exist")
                    .arg(out.option, out.path, QDir::toNativeSeparators(info.absolutePath()))};
    }
    if (!folder.isDir()) {
        return {Failure, QStringLiteral("cannot write %1 %2: %3 is not a folder")
                             .arg(out.option, out.path, info.absolutePath())};
    }
    const QString why = probeFolder(info.absolutePath());
    if (!why.isEmpty()) {
        return {Failure, QStringLiteral("cannot write %1 %2: %3 (in the folder %4)")
                             .arg(out.option, out.path, why, info.absolutePath())};
    }
    return {};
}

}  // namespace

bool isSameFile(const QString& a, const QString& b) {
    return resolvedPath(a) == resolvedPath(b) || sameFile(a, b);
}

QString resolvedPath(const QString& path) {
    const QFileInfo info(path);
    if (info.exists())
        return info.canonicalFilePath();
    // A file to be created: resolve its folder, keep its name.
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    if (folder.isEmpty())
        return QDir::cleanPath(info.absoluteFilePath());
    return folder + QLatin1Char('/') + info.fileName();
}

PathProblem checkOutputs(const QList<NamedPath>& outputs, const QList<NamedPath>& inputs,
                         bool force) {
    for (qsizetype i = 0; i < outputs.size(); ++i) {
        const NamedPath& out = outputs[i];
        if (out.path.isEmpty())
            return checkOne(out, force);
        const QString resolved = resolvedPath(out.path);
        for (const NamedPath& in : inputs) {
            if (resolvedPath(in.path) == resolved || sameFile(in.path, out.path)) {
                return refusedPath(
                    QStringLiteral("%1 %2 is the input %3; write to another file so that the "
                                   "input stays as it is")
                        .arg(out.option, out.path, in.path));
            }
        }
        for (qsizetype j = 0; j < i; ++j) {
            if (!outputs[j].path.isEmpty() && (resolvedPath(outputs[j].path) == resolved ||
                                               sameFile(outputs[j].path, out.path))) {
                return refusedPath(
                    QStringLiteral("%1 %2 and %3 %4 are the same file; give each "
                                   "its own path")
                        .arg(outputs[j].option, outputs[j].path, out.option, out.path));
            }
        }
    }
    for (const NamedPath& out : outputs) {
        if (const PathProblem p = checkOne(out, force))
            return p;
    }
    return {};
}

}  // namespace idem::cli
