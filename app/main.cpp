// idemlab: the window when started alone, otherwise a headless subcommand.
#include "cli.h"
#include "mainwindow.h"
#include "shot.h"

#include <QApplication>
#include <QTextStream>

namespace {

int windowOrShot(int argc, char* argv[], bool shot) {
    // A screenshot never needs a display.
    if (shot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("idemlab"));
    QApplication::setOrganizationName(QStringLiteral("Idempotency Lab"));
    QApplication::setApplicationDisplayName(QStringLiteral("Idempotency Lab"));
    if (shot)
        return idem::cli::shot(QApplication::arguments().mid(2));
    idem::MainWindow window;
    window.show();
    return app.exec();
}

}  // namespace

int main(int argc, char* argv[]) {
    const QString command = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (command.isEmpty())
        return windowOrShot(argc, argv, false);
    if (command == QLatin1String("shot"))
        return windowOrShot(argc, argv, true);

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("idemlab"));
    QStringList args = QCoreApplication::arguments().mid(1);
    args.takeFirst();
    if (command == QLatin1String("list"))
        return idem::cli::list(args);
    if (command == QLatin1String("run"))
        return idem::cli::run(args);
    if (command == QLatin1String("help") || command == QLatin1String("--help") ||
        command == QLatin1String("-h")) {
        return idem::cli::printHelp();
    }
    QTextStream(stderr) << "idemlab: unknown command \"" << command
                        << "\" (allowed: list, run, shot, help)" << Qt::endl;
    return idem::cli::BadInput;
}
