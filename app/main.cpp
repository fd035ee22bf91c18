// idemlab: the window when started alone or on a trace file, otherwise a
// subcommand; only the window needs a display.
#include "challengescenario.h"
#include "cli.h"
#include "completion.h"
#include "idemversion.h"
#include "lessoncommands.h"
#include "lessonhandout.h"
#include "mainwindow.h"
#include "outofmemory.h"
#include "quitonsignal.h"
#include "registry.h"
#include "shot.h"
#include "sweeper.h"
#include "texts.h"
#include "tracecommands.h"
#include "usage.h"
#include "workbenchcommands.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QTextStream>
#include <QThread>

#include <openssl/evp.h>

#include <unistd.h>

#include <new>

namespace {

enum class Gui { Window, Shot, Export, LessonExport };

// Off screen, the platform plugin reports window-manager hints it cannot
// honour; they say nothing about the command, so they are dropped.
void quietOffscreen(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QLatin1String("propagateSizeHints")))
        return;
    QTextStream(stderr) << qFormatLogMessage(type, context, message) << Qt::endl;
}

// A command that runs out of memory ends with one line and exit 1, as any
// other failure of the machine: Qt's containers throw std::bad_alloc when an
// allocation fails. Its outputs are work files that were never committed
// (outputfile.h).
template <typename Command>
int guarded(Command&& command) {
    static const char kWords[] = "idemlab: out of memory; nothing was written\n";
    try {
        const int code = command();
        // An allocation that failed inside Qt may have left a result wrong
        // without a word: not a success (outofmemory.h), whatever the
        // command concluded (it printed no line of its own since).
        if (!idem::memory::allocationFailed())
            return code;
    } catch (const std::bad_alloc&) {
    }
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kWords, sizeof kWords - 1);
    return idem::cli::Failure;
}

// `export ... --format html`: the report's diagrams are drawn off screen.
bool exportDraws(int argc, char* argv[]) {
    for (int i = 2; i < argc; ++i) {
        if (qstrcmp(argv[i], "--format=html") == 0 ||
            (qstrcmp(argv[i], "--format") == 0 && i + 1 < argc &&
             qstrcmp(argv[i + 1], "html") == 0))
            return true;
    }
    return false;
}

// trace: for the window, a trace to open at once (empty: none).
int withGui(int argc, char* argv[], Gui mode, const QString& trace = {}) {
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
    idem::allScenarios();                // before any input is read, as the headless commands do
    idem::registerChallengeScenarios();  // a workbench's trace names its challenge
    QApplication::setApplicationName(QStringLiteral("idemlab"));
    QApplication::setOrganizationName(QStringLiteral("Idempotency Lab"));
    QApplication::setApplicationDisplayName(QStringLiteral("Idempotency Lab"));
    QApplication::setApplicationVersion(QLatin1String(idem::kVersion));
    // The desktop shell matches the window to its menu entry by this id.
    QApplication::setDesktopFileName(QLatin1String(idem::kAppId));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/idemlab.svg")));
    const QStringList args = QApplication::arguments().mid(2);
    if (mode == Gui::Shot)
        return guarded([&] { return idem::cli::shot(args); });
    if (mode == Gui::Export)
        return guarded([&] { return idem::cli::exportTrace(args); });
    if (mode == Gui::LessonExport)
        return guarded([&] { return idem::cli::lessonExport(args.mid(1)); });
    idem::MainWindow window;
    // Stops the window's work and tidies up as quitting does (quitonsignal.h).
    const idem::QuitOnSignal quitOnSignal;
    window.show();
    if (!trace.isEmpty())
        window.openTraceAt(trace);
    return app.exec();
}

bool isCommandWord(const QString& word) {
    for (const idem::cli::Command& c : idem::cli::commands()) {
        if (word == QLatin1String(c.name))
            return true;
    }
    return word == QLatin1String("help") || word == QLatin1String("--help") ||
           word == QLatin1String("-h") || word == QLatin1String("--version") ||
           word == QLatin1String("completion");
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
    // Only the HTML report draws (its diagrams): the other formats need no
    // fonts or display and start as the headless commands do.
    if (command == QLatin1String("export") && exportDraws(argc, argv))
        return withGui(argc, argv, Gui::Export);
    // A lesson's hand-out draws its diagrams off screen.
    if (command == QLatin1String("lesson") && argc > 2 && qstrcmp(argv[2], "export") == 0)
        return withGui(argc, argv, Gui::LessonExport);

    // A file alone (the file manager's %f, or typed): the window opens on
    // it. A command's word is the command, even where a file has its name.
    if (argc == 2 && !isCommandWord(command)) {
        if (QFileInfo(command).isFile())
            return withGui(argc, argv, Gui::Window, command);
        if (command.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
            QTextStream(stderr) << "idemlab: cannot open the trace \"" << command
                                << "\": no such file" << Qt::endl;
            return idem::cli::BadInput;
        }
    }

    QCoreApplication app(argc, argv);
    // The scenarios are built before any input is read: every command needs
    // them, and an input that exhausts memory then finds them whole.
    idem::allScenarios();
    idem::registerChallengeScenarios();
    // OpenSSL looks up SHA-256 (the traces' digest) on first use and does not
    // survive an allocation failing then (it takes a null lock): looked up
    // here, before any input is opened, a later failure is one that Qt's
    // containers and the digest report (tests/faults_test.py).
    EVP_MD_free(EVP_MD_fetch(nullptr, "SHA256", nullptr));
    QCoreApplication::setApplicationName(QStringLiteral("idemlab"));
    QCoreApplication::setApplicationVersion(QLatin1String(idem::kVersion));
    const QStringList args = QCoreApplication::arguments().mid(2);
    if (command == QLatin1String("list"))
        return idem::cli::list(args);
    if (command == QLatin1String("run"))
        return guarded([&] { return idem::cli::run(args); });
    if (command == QLatin1String("replay"))
        return guarded([&] { return idem::cli::replay(args); });
    if (command == QLatin1String("export"))
        return guarded([&] { return idem::cli::exportTrace(args); });
    if (command == QLatin1String("experiment"))
        return guarded([&] { return idem::cli::experiment(args); });
    if (command == QLatin1String("lesson"))
        return guarded([&] { return idem::cli::lesson(args); });
    if (command == QLatin1String("challenge"))
        return guarded([&] { return idem::cli::challenge(args); });
    if (command == QLatin1String("check"))
        return guarded([&] { return idem::cli::check(args); });
    if (command == QLatin1String("help") || command == QLatin1String("--help") ||
        command == QLatin1String("-h")) {
        return idem::cli::printHelp();
    }
    // Hidden: the build runs it to write the bash completion it installs.
    if (command == QLatin1String("completion"))
        return idem::cli::completion(args);
    QTextStream(stderr) << "idemlab: unknown command \"" << command
                        << "\" (allowed: list, run, experiment, lesson, challenge, check, replay, "
                           "export, shot, help)"
                        << Qt::endl;
    return idem::cli::BadInput;
}
