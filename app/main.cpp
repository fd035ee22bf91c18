// idemlab: the window when started alone, otherwise a subcommand; only the
// window needs a display.
#include "cli.h"
#include "completion.h"
#include "idemversion.h"
#include "lessoncommands.h"
#include "lessonhandout.h"
#include "mainwindow.h"
#include "shot.h"
#include "sweeper.h"
#include "texts.h"
#include "tracecommands.h"
#include "usage.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QTextStream>
#include <QThread>

#include <unistd.h>

namespace {

enum class Gui { Window, Shot, Export, LessonExport };

// Off screen, the platform plugin reports window-manager hints it cannot
// honour; they say nothing about the command, so they are dropped.
void quietOffscreen(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QLatin1String("propagateSizeHints")))
        return;
    QTextStream(stderr) << qFormatLogMessage(type, context, message) << Qt::endl;
}

int withGui(int argc, char* argv[], Gui mode) {
    // A screenshot, a report or a hand-out is drawn off screen.
    if (mode != Gui::Window) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        qInstallMessageHandler(quietOffscreen);
        // Headless machines (CI, ssh) often lack a runtime folder; make a
        // private one so that the only output is the command's own.
        if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
            // In $TMPDIR when it is a folder (QDir::tempPath() is empty for
            // one that does not exist: the root folder is no place for it).
            const QFileInfo tmpdir(qEnvironmentVariable("TMPDIR"));
            const QString base =
                tmpdir.isDir() ? tmpdir.absoluteFilePath() : QStringLiteral("/tmp");
            const QByteArray dir =
                QFile::encodeName(base) + "/idemlab-runtime-" + QByteArray::number(getuid());
            QDir().mkpath(QString::fromLocal8Bit(dir));
            QFile::setPermissions(QString::fromLocal8Bit(dir),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            qputenv("XDG_RUNTIME_DIR", dir);
        }
    }
    idem::Sweeper::freeEvenly();
    // Qt takes the first thread that uses it for the main thread: this one
    // must come before the texts' reader, or under load the reader wins and
    // the window runs on a thread Qt calls foreign.
    QThread::currentThread();
    if (mode == Gui::Window)
        idem::Texts::loadInBackground();  // read while the application starts
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("idemlab"));
    QApplication::setOrganizationName(QStringLiteral("Idempotency Lab"));
    QApplication::setApplicationDisplayName(QStringLiteral("Idempotency Lab"));
    QApplication::setApplicationVersion(QLatin1String(idem::kVersion));
    // The desktop shell matches the window to its menu entry by this id.
    QApplication::setDesktopFileName(QLatin1String(idem::kAppId));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/idemlab.svg")));
    const QStringList args = QApplication::arguments().mid(2);
    if (mode == Gui::Shot)
        return idem::cli::shot(args);
    if (mode == Gui::Export)
        return idem::cli::exportTrace(args);
    if (mode == Gui::LessonExport)
        return idem::cli::lessonExport(args.mid(1));
    idem::MainWindow window;
    window.show();
    return app.exec();
}

}  // namespace

int main(int argc, char* argv[]) {
    // Only no argument at all opens the window; an empty one is an unknown command.
    if (argc < 2)
        return withGui(argc, argv, Gui::Window);
    const QString command = QString::fromLocal8Bit(argv[1]);
    if (command == QLatin1String("--version"))
        return idem::cli::printVersion();
    if (command == QLatin1String("shot"))
        return withGui(argc, argv, Gui::Shot);
    if (command == QLatin1String("export"))
        return withGui(argc, argv, Gui::Export);
    // A lesson's hand-out draws its diagrams off screen.
    if (command == QLatin1String("lesson") && argc > 2 && qstrcmp(argv[2], "export") == 0)
        return withGui(argc, argv, Gui::LessonExport);

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("idemlab"));
    QCoreApplication::setApplicationVersion(QLatin1String(idem::kVersion));
    const QStringList args = QCoreApplication::arguments().mid(2);
    if (command == QLatin1String("list"))
        return idem::cli::list(args);
    if (command == QLatin1String("run"))
        return idem::cli::run(args);
    if (command == QLatin1String("replay"))
        return idem::cli::replay(args);
    if (command == QLatin1String("experiment"))
        return idem::cli::experiment(args);
    if (command == QLatin1String("lesson"))
        return idem::cli::lesson(args);
    if (command == QLatin1String("help") || command == QLatin1String("--help") ||
        command == QLatin1String("-h")) {
        return idem::cli::printHelp();
    }
    // Hidden: the build runs it to write the bash completion it installs.
    if (command == QLatin1String("completion"))
        return idem::cli::completion(args);
    QTextStream(stderr) << "idemlab: unknown command \"" << command
                        << "\" (allowed: list, run, experiment, lesson, replay, export, shot, help)"
                        << Qt::endl;
    return idem::cli::BadInput;
}
