// idemlab: the window when started alone, otherwise a headless subcommand.
#include "cli.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("idemlab"));
    QCoreApplication::setOrganizationName(QStringLiteral("Idempotency Lab"));
    QStringList args = QCoreApplication::arguments().mid(1);
    if (args.isEmpty()) return idem::cli::printHelp();
    const QString command = args.takeFirst();
    if (command == QLatin1String("list")) return idem::cli::list(args);
    if (command == QLatin1String("run")) return idem::cli::run(args);
    if (command == QLatin1String("help") || command == QLatin1String("--help") ||
        command == QLatin1String("-h")) {
        return idem::cli::printHelp();
    }
    QTextStream(stderr) << "idemlab: unknown command \"" << command
                        << "\" (allowed: list, run, help)" << Qt::endl;
    return idem::cli::BadInput;
}
