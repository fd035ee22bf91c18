// What leaves the program as a file: complete or untouched, a full disk
// included, with the system's words when it cannot be written.
#include "tracewriters.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace idem;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
}

}  // namespace

class TraceWritersTest : public QObject {
    Q_OBJECT
private slots:
    void fullDiskLeavesTheOldFile();
    void unwritableFolderSaysWhy();
};

void TraceWritersTest::fullDiskLeavesTheOldFile() {
    QTemporaryDir dir;
    const QString mountPoint = dir.filePath("small");
    QVERIFY(QDir().mkpath(mountPoint));
    QProcess mount;
    mount.start(QStringLiteral("mount"), {"-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint});
    if (!mount.waitForFinished(10'000) || mount.exitStatus() != QProcess::NormalExit ||
        mount.exitCode() != 0) {
        QSKIP("cannot mount a small tmpfs here (needs root); the full-disk path is untested");
    }
    auto unmount = qScopeGuard([&] { QProcess::execute("umount", {mountPoint}); });
    const QString path = mountPoint + QStringLiteral("/report.csv");
    QString error;
    QVERIFY2(writeFileAtomically(path, "old report\n", &error), qPrintable(error));
    // Twice the size of the whole file system: the write stops short.
    QVERIFY(!writeFileAtomically(path, QByteArray(128 * 1024, 'x'), &error));
    QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("old report\n"));
    QCOMPARE(QDir(mountPoint).entryList(QDir::Files | QDir::Hidden).size(), 1);
    // Less than the free space but more than a page: written whole.
    QVERIFY2(writeFileAtomically(path, QByteArray(20 * 1024, 'y'), &error), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray(20 * 1024, 'y'));
}

void TraceWritersTest::unwritableFolderSaysWhy() {
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath("missing/report.csv");
    QVERIFY(!writeFileAtomically(path, "x", &error));
    QVERIFY2(error.contains(path) && error.contains(QStringLiteral("No such file or directory")),
             qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

QTEST_GUILESS_MAIN(TraceWritersTest)
#include "tracewriters_test.moc"
