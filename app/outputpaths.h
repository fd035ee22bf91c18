// The files a command will write, checked before anything runs, so that a
// long run never ends in a path that cannot take its result and no input is
// overwritten by its own output.
#pragma once

#include <QList>
#include <QString>

namespace idem::cli {

// A command-line file: the option that names it ("--trace", or "TRACE" for
// a positional input) and the path as given.
struct NamedPath {
    QString option;
    QString path;
    // --db: a database has a rule of its own (RunDatabase: its stamp), the
    // same in spirit, checked when the run prepares the file.
    bool database = false;
};

// One line for stderr and the exit code (cli::Exit); code 0 when all is well.
struct PathProblem {
    int code = 0;
    QString message;
    explicit operator bool() const { return code != 0; }
};

// Refused as bad input: an empty path, a directory, something that is not a
// regular file, a symbolic link (the output would replace the link, or land in
// the file it points to, far from where the student looks), an output equal to
// an input or to another output (compared after resolving ".", ".." and links,
// and as the same file on disk: a hard link), and an existing file that this
// program did not write (labfiles.h), or that it wrote but `force` (--force)
// does not allow to replace.
// An I/O failure: a folder that does not exist or does not take a new file,
// with the system's own words ("Permission denied", "Read-only file system").
PathProblem checkOutputs(const QList<NamedPath>& outputs, const QList<NamedPath>& inputs = {},
                         bool force = false);

// Whether two paths name one file: the same path once resolved, or the same
// file on disk (a hard link).
bool isSameFile(const QString& a, const QString& b);

// The path with ".", ".." and symbolic links resolved, also for a file that
// does not exist yet (its folder is resolved).
QString resolvedPath(const QString& path);

}  // namespace idem::cli
