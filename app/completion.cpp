#include "completion.h"

#include "challenge.h"
#include "cli.h"
#include "idemversion.h"
#include "lessonbook.h"
#include "mainwindow.h"
#include "registry.h"
#include "serverbackend.h"
#include "shot.h"
#include "tracecommands.h"
#include "usage.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>

namespace idem::cli {

namespace {

struct Option {
    QString name;       // without the dashes
    QString valueName;  // empty for a flag
};

// The long options that `idemlab COMMAND --help` lists: asking the program
// itself keeps the completion and the parsers from drifting apart. command:
// the words before --help ("lesson export").
bool readOptions(const QStringList& command, QList<Option>* options, QString* error) {
    QProcess help;
    help.start(QCoreApplication::applicationFilePath(), command + QStringList{"--help"});
    if (!help.waitForFinished(60'000) || help.exitStatus() != QProcess::NormalExit ||
        help.exitCode() != Ok) {
        *error = QStringLiteral("`idemlab %1 --help` failed: %2")
                     .arg(command.join(QLatin1Char(' ')),
                          QString::fromLocal8Bit(help.readAllStandardError()).trimmed());
        return false;
    }
    // Qt's help puts each option at two spaces; wrapped descriptions are
    // indented further.
    static const QRegularExpression line(
        QStringLiteral(R"(^  (?:-\w, )?--([\w-]+)(?: <([^>]+)>)?)"),
        QRegularExpression::MultilineOption);
    auto it = line.globalMatch(QString::fromUtf8(help.readAllStandardOutput()));
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        options->append({m.captured(1), m.captured(2)});
    }
    if (options->isEmpty()) {
        *error = QStringLiteral("`idemlab %1 --help` lists no options")
                     .arg(command.join(QLatin1Char(' ')));
        return false;
    }
    return true;
}

// The script quotes nothing: every word must be a plain id.
bool plain(const QStringList& words, QString* error) {
    static const QRegularExpression id(QStringLiteral(R"(^[A-Za-z0-9._=-]+$)"));
    for (const QString& w : words) {
        if (!id.match(w).hasMatch()) {
            *error = QStringLiteral("\"%1\" cannot be offered by the completion").arg(w);
            return false;
        }
    }
    return true;
}

QStringList idsOf(const QList<CrashPoint>& points) {
    QStringList ids{toId(CrashPoint::None)};
    for (CrashPoint p : points) ids << toId(p);
    return ids;
}

// One `case` arm: `key) echo "words" ;;`.
QString arm(const QString& key, const QStringList& words, int indent) {
    return QString(indent, QLatin1Char(' ')) +
           QStringLiteral("%1) echo \"%2\" ;;\n").arg(key, words.join(QLatin1Char(' ')));
}

}  // namespace

int completion(const QStringList& args) {
    if (args != QStringList{QStringLiteral("bash")}) {
        QTextStream(stderr) << "idemlab: usage: idemlab completion bash" << Qt::endl;
        return BadInput;
    }
    QString error;
    QStringList all;  // every word the script offers, checked once
    QString options, kinds;
    QStringList commandNames;
    // Each subcommand's options; `lesson export` has its own, under the name
    // the script gives it.
    QList<QPair<QString, QStringList>> optionSets;
    for (const Command& c : commands()) {
        commandNames << QLatin1String(c.name);
        optionSets.append({QLatin1String(c.name), {QLatin1String(c.name)}});
    }
    optionSets.append({QStringLiteral("lesson-export"), {"lesson", "export"}});
    const QStringList lessonActions{"list", "check", "export"};
    QStringList lessonIds;
    for (const Lesson& l : bundledLessons()) lessonIds << l.id;
    const QStringList challengeActions{"list", "show", "start"};
    QStringList challengeIds;
    for (const Challenge& c : allChallenges()) challengeIds << c.id;
    for (const auto& [name, words] : optionSets) {
        QList<Option> list;
        if (!readOptions(words, &list, &error)) {
            QTextStream(stderr) << "idemlab: " << error << Qt::endl;
            return Failure;
        }
        QStringList flags, files, values;
        for (const Option& o : list) {
            const QString flag = QStringLiteral("--") + o.name;
            flags << flag;
            if (o.valueName.contains(QLatin1String("FILE")))
                files << flag;
            else if (!o.valueName.isEmpty())
                values << flag;
        }
        all << flags;
        options += arm(name, flags, 8);
        if (!files.isEmpty())
            kinds += QStringLiteral("        \"%1 %2\") echo file ;;\n")
                         .arg(name, files.join(QStringLiteral("\" | \"") + name + ' '));
        if (!values.isEmpty())
            kinds += QStringLiteral("        \"%1 %2\") echo value ;;\n")
                         .arg(name, values.join(QStringLiteral("\" | \"") + name + ' '));
    }

    QStringList scenarioIds, allVariants;
    QString variants, sources, crashes, params;
    for (const Scenario* s : allScenarios()) {
        const ScenarioInfo& info = s->info();
        scenarioIds << info.id;
        QStringList ids, sourceList, paramKeys;
        for (const VariantInfo& v : info.variants) {
            ids << v.id;
            crashes += arm(info.id + '/' + v.id, idsOf(v.crashPoints), 16);
        }
        // No --variant: the run uses the default one.
        const VariantInfo* chosen = info.variant(defaultConfig(*s).variant);
        crashes +=
            arm(info.id + '/', idsOf(chosen ? chosen->crashPoints : QList<CrashPoint>()), 16);
        for (Source src : info.sources) sourceList << toId(src);
        for (const ParamInfo& p : info.params) paramKeys << p.key + '=';
        variants += arm(info.id, ids, 16);
        sources += arm(info.id, sourceList, 16);
        params += arm(info.id, paramKeys, 16);
        for (const QString& v : ids) {
            if (!allVariants.contains(v))
                allVariants << v;
        }
        all << ids << sourceList << paramKeys;
    }
    // Live mode: the backends, and the levels of the chosen one (SQLite has one).
    // `check` also takes `all`: every backend, every level of the chosen one.
    const QString every = QStringLiteral("all");
    QString isolations;
    QStringList anyLevel;
    for (const QString& b : backendIds()) {
        isolations += arm(QStringLiteral("check/") + b, isolationIds(b) << every, 16);
        for (const QString& level : isolationIds(b)) {
            if (!anyLevel.contains(level))
                anyLevel << level;
        }
        all << isolationIds(b);
    }
    isolations += arm(QStringLiteral("check/*"), QStringList(anyLevel) << every, 16);
    for (const QString& b : backendIds())
        isolations += arm(QStringLiteral("*/") + b, isolationIds(b), 16);
    all << every;
    const QStringList sizes{QStringLiteral("1280x720"), QStringLiteral("1920x1080")};
    all << scenarioIds << timingIds() << sourceIds() << crashPointIds() << verdictIds()
        << MainWindow::viewNames() << exportFormats() << commandNames << lessonActions << lessonIds
        << challengeActions << challengeIds << backendIds() << aloneViewIds() << themeIds()
        << sizes;
    if (!plain(all, &error)) {
        QTextStream(stderr) << "idemlab: " << error << Qt::endl;
        return Failure;
    }

    QTextStream out(stdout);
    out << "# bash completion for idemlab " << kVersion
        << ": subcommands, options, scenario ids, the variants,\n"
           "# sources, crash points and parameters of the chosen scenario, timings,\n"
           "# backends and the chosen backend's isolation levels, lessons, challenges, views,\n"
           "# themes.\n"
           "# Generated by `idemlab completion bash` from the scenario registry and each\n"
           "# subcommand's --help; do not edit.\n\n"
           "# The options of subcommand $1.\n"
           "_idemlab_options() {\n"
           "    case \"$1\" in\n"
        << options
        << "    esac\n"
           "}\n\n"
           "# Whether option $2 of subcommand $1 takes a file or another value.\n"
           "_idemlab_value_kind() {\n"
           "    case \"$1 $2\" in\n"
        << kinds
        << "    esac\n"
           "}\n\n"
           "# The values of option $1; $2 is the chosen scenario, $3 the chosen variant,\n"
           "# $4 the subcommand, $5 the chosen backend.\n"
           "_idemlab_values() {\n"
           "    case \"$1\" in\n"
        << arm(QStringLiteral("--scenario"), scenarioIds, 8)
        << "        --variant)\n"
           "            case \"$2\" in\n"
        << variants << arm(QStringLiteral("*"), allVariants, 16)
        << "            esac ;;\n"
           "        --source)\n"
           "            case \"$2\" in\n"
        << sources << arm(QStringLiteral("*"), sourceIds(), 16)
        << "            esac ;;\n"
           "        --crash)\n"
           "            case \"$2/$3\" in\n"
        << crashes
        << arm(QStringLiteral("*"), QStringList{toId(CrashPoint::None)} + crashPointIds(), 16)
        << "            esac ;;\n"
           "        --param)\n"
           "            case \"$2\" in\n"
        << params << "            esac ;;\n"
        << arm(QStringLiteral("--timing"), timingIds(), 8)
        << arm(QStringLiteral("--expect"), verdictIds(), 8)
        << arm(QStringLiteral("--view"), MainWindow::viewNames(), 8)
        << "        --backend)\n"
           "            case \"$4\" in\n"
        << arm(QStringLiteral("check"), backendIds() << every, 16)
        << arm(QStringLiteral("*"), backendIds(), 16) << "            esac ;;\n"
        << arm(QStringLiteral("--redis"), {QStringLiteral("off"), QStringLiteral("private")}, 8)
        << "        --isolation)\n"
           "            case \"$4/$5\" in\n"
        << isolations << arm(QStringLiteral("*"), isolationIds(QStringLiteral("postgres")), 16)
        << "            esac ;;\n"
           "        --variants)\n"
           "            case \"$2\" in\n"
        << variants << arm(QStringLiteral("*"), allVariants, 16) << "            esac ;;\n"
        << arm(QStringLiteral("--alone"), aloneViewIds(), 8)
        << arm(QStringLiteral("--theme"), themeIds(), 8) << arm(QStringLiteral("--size"), sizes, 8)
        << arm(QStringLiteral("--lesson"), lessonIds, 8)
        << arm(QStringLiteral("--challenge"), challengeIds, 8)
        << "        --format)\n"
           "            case \"$4\" in\n"
        << arm(QStringLiteral("lesson-export"), {QStringLiteral("html")}, 16)
        << arm(QStringLiteral("*"), exportFormats(), 16) << "            esac ;;\n"
        << arm(QStringLiteral("--lang"), {QStringLiteral("zh"), QStringLiteral("en")}, 8)
        << "    esac\n"
           "}\n\n"
           "_idemlab() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
           "    local subcommand=${COMP_WORDS[1]} scenario= variant= backend= option value i\n"
           "    local listed=\n"
           "    COMPREPLY=()\n"
           "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
           "        mapfile -t COMPREPLY < <(compgen -W \""
        << commandNames.join(' ')
        << " help --help --version\" -- \"$cur\")\n"
           "        return 0\n"
           "    fi\n"
           "    # lesson: its action first; lesson export has options of its own.\n"
           "    if [ \"$subcommand\" = lesson ]; then\n"
           "        if [ \"$COMP_CWORD\" -eq 2 ] && [[ $cur != -* ]]; then\n"
           "            mapfile -t COMPREPLY < <(compgen -W \""
        << lessonActions.join(' ')
        << "\" -- \"$cur\")\n"
           "            return 0\n"
           "        fi\n"
           "        [ \"${COMP_WORDS[2]}\" = export ] && subcommand=lesson-export\n"
           "    fi\n"
           "    # challenge: its action, then a challenge's id.\n"
           "    if [ \"$subcommand\" = challenge ] && [[ $cur != -* ]]; then\n"
           "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
           "            mapfile -t COMPREPLY < <(compgen -W \""
        << challengeActions.join(' ')
        << "\" -- \"$cur\")\n"
           "            return 0\n"
           "        fi\n"
           "        if [ \"$COMP_CWORD\" -eq 3 ] && [ \"${COMP_WORDS[2]}\" != list ]; then\n"
           "            mapfile -t COMPREPLY < <(compgen -W \""
        << challengeIds.join(' ')
        << "\" -- \"$cur\")\n"
           "            return 0\n"
           "        fi\n"
           "    fi\n"
           "    # bash splits --option=value at the '='.\n"
           "    for ((i = 2; i < ${#COMP_WORDS[@]} - 1; i++)); do\n"
           "        value=${COMP_WORDS[i + 1]}\n"
           "        [ \"$value\" = \"=\" ] && value=${COMP_WORDS[i + 2]}\n"
           "        case ${COMP_WORDS[i]} in\n"
           "            --scenario) scenario=$value ;;\n"
           "            --variant) variant=$value ;;\n"
           "            --backend) backend=$value ;;\n"
           "        esac\n"
           "    done\n"
           "    option=$prev\n"
           "    [ \"$prev\" = \"=\" ] && option=${COMP_WORDS[COMP_CWORD - 2]}\n"
           "    case $(_idemlab_value_kind \"$subcommand\" \"$option\") in\n"
           "        file)\n"
           "            compopt -o filenames 2>/dev/null\n"
           "            mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
           "            return 0 ;;\n"
           "        value)\n"
           "            # --variants a,b,...: the next name after the last comma.\n"
           "            if [ \"$option\" = --variants ] && [[ $cur == *,* ]]; then\n"
           "                listed=${cur%,*},\n"
           "                mapfile -t COMPREPLY < <(for i in $(_idemlab_values \"$option\" "
           "\"$scenario\"); do [[ \",$listed\" == *\",$i,\"* ]] || echo \"$listed$i\"; done | "
           "grep -- \"^$cur\")\n"
           "                compopt -o nospace 2>/dev/null\n"
           "                return 0\n"
           "            fi\n"
           "            mapfile -t COMPREPLY < <(compgen -W \"$(_idemlab_values \"$option\" "
           "\"$scenario\" \"$variant\" \"$subcommand\" \"$backend\")\" -- \"$cur\")\n"
           "            # --param key=: the value follows without a space.\n"
           "            [[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null\n"
           "            return 0 ;;\n"
           "    esac\n"
           "    if [[ $cur == -* ]]; then\n"
           "        mapfile -t COMPREPLY < <(compgen -W \"$(_idemlab_options \"$subcommand\")\" -- "
           "\"$cur\")\n"
           "        return 0\n"
           "    fi\n"
           "    case $subcommand in\n"
           "        replay | export | check)\n"
           "            compopt -o filenames 2>/dev/null\n"
           "            mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
           "        lesson | lesson-export)\n"
           "            # A bundled lesson's id or a lesson file.\n"
           "            [ \"${COMP_WORDS[2]}\" = list ] && return 0\n"
           "            compopt -o filenames 2>/dev/null\n"
           "            mapfile -t COMPREPLY < <(compgen -W \""
        << lessonIds.join(' ')
        << "\" -- \"$cur\"; compgen -f -- \"$cur\") ;;\n"
           "    esac\n"
           "    return 0\n"
           "}\n\n"
           "complete -F _idemlab idemlab\n"
        << Qt::flush;
    return Ok;
}

}  // namespace idem::cli
