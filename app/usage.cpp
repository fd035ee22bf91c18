#include "usage.h"

#include "cli.h"
#include "configcheck.h"
#include "idemversion.h"

#include <QLocale>
#include <QTextStream>

namespace idem::cli {

const QList<Command>& commands() {
    static const QList<Command> list{
        {"list", "[--json]",
         "Lists the scenarios, their variants (* recommended) and crash points, the sources,\n"
         "the timings and each scenario's parameters with their defaults.",
         "0 listed, 2 bad input."},
        {"run", "--scenario S [options]",
         "Runs a scenario to the end on a real SQLite database and prints a readable summary,\n"
         "or exactly one JSON object with --json.",
         "0 ran, 1 an I/O or internal failure, 2 bad input, 3 the verdict differs from --expect."},
        {"experiment",
         "--scenario S [--variants a,b] [--intents N] [--seed N] [--backend B] [--connect URL] "
         "[--redis R] [--json]",
         "Runs many intents per variant, each batch with random duplicates, timing and crash\n"
         "point, and prints the intents per verdict for each variant.",
         "0 ran, 1 a run could not run (the folder and the system's words), 2 bad input, 130 "
         "stopped by Ctrl+C."},
        {"lesson",
         "list [--json] | check [--json] [FILE|ID]... | export ID|FILE --format html [--lang "
         "zh|en] --out FILE",
         "Lists the lessons that come with the program, checks lessons (every frame's run\n"
         "reaches its pause and every question's answer, read from the run, is one of its\n"
         "choices), or writes a lesson as a self-contained HTML hand-out: each frame's words,\n"
         "settings, diagrams at its pause and question, the answers on a last page.",
         "0 listed, every lesson holds or the hand-out was written, 1 a bundled lesson does not "
         "read or the file could not be written, 2 bad input or a lesson that does not hold."},
        {"challenge", "list [--json] | show ID [--lang zh|en] [--hints N] | start ID [--out FILE]",
         "Lists the workbench's challenges, tells one's story and reveals its hints one at a\n"
         "time, or writes its starter handler (a JavaScript file that fails) to FILE.",
         "0 listed, shown or written, 1 the file could not be written, 2 bad input."},
        {"check",
         "FILE [--challenge ID] [--backend sqlite|mariadb|postgres|all] [--isolation L] "
         "[--redis off|private|URL] [--preemptions N] [--json] [--trace-dir DIR]",
         "Attacks a handler written for a challenge: every interleaving of its concurrent\n"
         "attempts up to the preemption bound, a crash before every statement and every answer\n"
         "lost, each run judged from the database; the smallest failing schedule is saved as a\n"
         "trace that replay and the window open. With --redis the handler may yield\n"
         "redis.call(...), and a consumer's messages come from a Redis stream.",
         "0 passed, 1 a counterexample, 2 bad input (a syntax error as file:line:column, an\n"
         "unknown challenge, a handler the lab had to stop)."},
        {"replay", "TRACE [--recorded | --connect URL] [--redis R]",
         "Runs the configuration stored in a trace again and compares every event and the\n"
         "summary. --recorded plays a MariaDB or PostgreSQL run from the trace itself, where\n"
         "the server is not installed; --connect URL runs it on a server the user runs. A run\n"
         "with Redis is answered from the trace, or by a real Redis again with --redis R.",
         "0 every event is identical, 1 the first difference is printed, 2 bad input."},
        {"export",
         "TRACE... --format csv|xlsx|shiviz|html|mermaid|plantuml|history|chrome --out FILE",
         "Writes a trace as CSV, as a spreadsheet (.xlsx: events and run sheets), as a ShiViz log "
         "(several traces: one execution each), as a\n"
         "self-contained HTML report with the configuration, the summary, both diagrams and\n"
         "every event, as a Mermaid or PlantUML sequence diagram, as a Jepsen-style history\n"
         "(JSON lines: invoke, ok, fail, info) or as Chrome trace events for Perfetto.",
         "0 written, 1 the file could not be written (or --verify refused the trace), 2 bad "
         "input."},
        {"shot", "--scenario S [run options] [--view NAME] --out FILE.png",
         "Runs a scenario in the real window off screen (no display needed) and saves a\n"
         "picture of one view.",
         "0 saved, 1 the picture could not be taken or written, 2 bad input."},
    };
    return list;
}

void addHelpFlag(QCommandLineParser& parser) {
    parser.addOption({{"h", "help"}, "Show this help and exit."});
}

bool printedUsage(const QCommandLineParser& parser, const QString& command) {
    if (!parser.isSet(QStringLiteral("help")))
        return false;
    for (const Command& c : commands()) {
        if (command != QLatin1String(c.name))
            continue;
        // Qt's first line names the executable's path, not the subcommand:
        // keep only its list of options and arguments.
        const QString help = parser.helpText();
        QTextStream out(stdout);
        out << "Usage: idemlab " << c.name << ' ' << c.synopsis << "\n"
            << c.summary << "\n\n"
            << help.mid(help.indexOf(QLatin1String("Options:"))) << "\nExit codes: " << c.exitCodes
            << Qt::endl;
        return true;
    }
    return false;
}

int printHelp() {
    QTextStream out(stdout);
    out << "Idempotency Lab (幂等实验室) " << kVersion
        << " — fire duplicate requests at real SQL and watch.\n\n"
           "Usage:\n"
           "  idemlab [TRACE]             open the window (on a trace file: replayed in it)\n";
    for (const Command& c : commands()) {
        out << "  idemlab " << c.name << ' ' << c.synopsis << "\n      "
            << QString::fromUtf8(c.summary).replace(QLatin1Char('\n'), QLatin1Char(' ')) << "\n";
    }
    out << "  idemlab help, --help        this help\n"
           "  idemlab --version           the version\n\n"
           "`idemlab COMMAND --help` lists every option of a command; `man idemlab` explains "
           "them.\n\n"
           "Numbers are whole numbers (digits, perhaps a leading -) within each option's range.\n"
        << "Large runs: every run estimated above "
        << QLocale(QLocale::English).toString(kMaxEstimatedStatements) << " SQL statements\n"
        << "(intents x (duplicates + 1) x (max-retries + 1) x " << kStatementsPerAttempt
        << ", more where an attempt\n"
           "loops, as a reader paging does) is refused before anything runs unless\n"
           "--allow-large, however it starts: run, shot, replay, export (a trace's\n"
           "configuration), experiment, lesson check and export, shot --lesson (each frame).\n"
           "100000 intents with the defaults run, 1000 intents with 1000 duplicates do not.\n"
           "A run that keeps its steps in memory (run --narrate, a lesson's frames, each\n"
           "and added up) is also refused above "
        << kMaxKeptBytes / (1024 * 1024) << " MB of them (about " << kKeptBytesPerStatement
        << " bytes a statement).\n"
           "Output files (--trace, --db, --out) are checked before anything runs: never an\n"
           "input (under any name), never the same file twice, never a directory or a\n"
           "symbolic link, and never an existing file idemlab did not write; an earlier\n"
           "output of idemlab's (recognised by its mark) is replaced only with --force.\n\n"
           "Exit codes: 0 ran; 1 an I/O or internal failure (the path and the system's words\n"
           "on stderr, e.g. \"No space left on device\"); 2 bad input (one line on stderr\n"
           "naming the bad value and the allowed ones); 3 the verdict differs from --expect;\n"
           "130 stopped by Ctrl+C (143 SIGTERM, 129 SIGHUP) within a second, nothing left\n"
           "half-written (a run's summary printed is marked incomplete).\n"
        << Qt::flush;
    return Ok;
}

int printVersion() {
    QTextStream(stdout) << "idemlab " << kVersion << Qt::endl;
    return Ok;
}

}  // namespace idem::cli
