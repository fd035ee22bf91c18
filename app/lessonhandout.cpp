#include "lessonhandout.h"

#include "attack.h"
#include "challenge.h"
#include "cli.h"
#include "configcheck.h"
#include "firepanel.h"
#include "handlerrun.h"
#include "idemversion.h"
#include "interruption.h"
#include "labfiles.h"
#include "lessonbook.h"
#include "lessoncommands.h"
#include "lessonpanel.h"
#include "lockstory.h"
#include "names.h"
#include "outputfile.h"
#include "outputpaths.h"
#include "pausesentence.h"
#include "registry.h"
#include "reportdiagrams.h"
#include "run.h"
#include "stepcaption.h"
#include "stepnarrator.h"
#include "texts.h"
#include "tracewriters.h"
#include "usage.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QTextStream>
#include <QTranslator>

namespace idem {

namespace {

// The hand-out's own words, translated under one context.
class LessonHandout {
    Q_DECLARE_TR_FUNCTIONS(idem::LessonHandout)
};

QString escape(const QString& s) {
    return s.toHtmlEscaped();
}

// A lesson's text as paragraphs: its line breaks are the author's.
QString paragraphs(const QString& text) {
    QString h;
    for (const QString& p : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        h += QStringLiteral("<p>%1</p>").arg(escape(p));
    return h;
}

// On screen a column of reading width; on paper each diagram at the page's
// width and kept whole, a frame's words and its question never split, the
// answers on a page of their own.
constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:2em auto;max-width:60em;padding:0 1em;line-height:1.45;"
    "color:#222}"
    "h1{font-size:170%;margin-bottom:.2em}.summary{font-size:110%}.meta{color:#666}"
    "section.frame{border-top:2px solid #bbb;margin-top:1.6em;padding-top:.6em}"
    "h2 .number{color:#666;font-weight:normal;margin-right:.6em}"
    ".narration p{margin:.4em 0}"
    "dl.config{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;"
    "background:#f4f4f4;padding:.5em .8em;margin:.6em 0}"
    "dl.config dt{font-weight:bold}dl.config dd{margin:0}"
    "code{font-family:monospace;font-size:90%}"
    "pre.handler{background:#f6f6f6;border:1px solid #ddd;padding:.5em .8em;font-size:85%;"
    "white-space:pre-wrap;break-inside:avoid}"
    ".caption{border-left:4px solid #4a7fb5;background:#eef4fa;padding:.3em .7em}"
    ".look{font-style:italic}.note{color:#555;font-style:italic}"
    "figure{margin:.6em 0}figcaption{font-weight:bold;margin-bottom:.3em}"
    "figure svg{display:block;max-width:100%;height:auto;border:1px solid #ddd}"
    ".question{border:1px solid #888;padding:.4em .9em;margin-top:.8em}"
    ".question ol{margin:.3em 0}.blank{color:#666}"
    "section.answers{break-before:page;page-break-before:always;margin-top:2em}"
    ".answers li{margin:.3em 0}.why{color:#444}"
    "@page{size:A4;margin:12mm}"
    "@media print{"
    "body{margin:0;max-width:none;padding:0;font-size:10pt}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    "h1,h2,figcaption{break-after:avoid;page-break-after:avoid}"
    ".intro,figure,.question,.answers li{break-inside:avoid;page-break-inside:avoid}"
    "figure svg{width:100%;max-height:240mm;border:none}}";

// Added when a frame runs on a server: its lock tables.
constexpr const char* kLocksStyle =
    "table.locks{border-collapse:collapse;font-size:90%}"
    "table.locks td,table.locks th{border:1px solid #bbb;padding:2px 6px;text-align:left}"
    "table.locks th{background:#eee}table.locks thead{display:table-header-group}"
    "table.locks tr{break-inside:avoid;page-break-inside:avoid}";

// The numbers the fire panel's line leaves out, when a lesson sets them.
struct NumberWords {
    NumberField field;
    const char* text;
};
constexpr NumberWords kNumberWords[] = {
    {NumberField::IntervalMs, QT_TRANSLATE_NOOP("idem::LessonHandout", "%1 ms between attempts")},
    {NumberField::MaxRetries, QT_TRANSLATE_NOOP("idem::LessonHandout", "at most %1 retries")},
    {NumberField::ExpiryMs, QT_TRANSLATE_NOOP("idem::LessonHandout", "in-progress expiry %1 ms")},
    {NumberField::RetentionMs,
     QT_TRANSLATE_NOOP("idem::LessonHandout", "dedup records kept %1 ms")},
    {NumberField::TtlMs, QT_TRANSLATE_NOOP("idem::LessonHandout", "cache TTL %1 ms")},
    {NumberField::LeaseMs, QT_TRANSLATE_NOOP("idem::LessonHandout", "lock lease %1 ms")},
    {NumberField::VisibilityMs,
     QT_TRANSLATE_NOOP("idem::LessonHandout", "visibility timeout %1 ms")},
};

// The settings in words: the fire panel's line, and the numbers that differ
// from the scenario's defaults.
QString settingsText(const RunConfig& config, const Scenario& scenario) {
    QStringList parts{FirePanel::settingsText(config)};
    const RunConfig defaults = defaultConfig(scenario);
    for (const NumberWords& w : kNumberWords) {
        const qint64 value = numberOf(config, w.field);
        if (value != numberOf(defaults, w.field))
            parts << LessonHandout::tr(w.text).arg(value);
    }
    return parts.join(QStringLiteral(" · "));
}

QString variantText(const RunConfig& config, const Scenario& scenario) {
    QString title = Texts::instance().variantTitle(config.scenario, config.variant);
    if (title.isEmpty())
        title = config.variant;
    const VariantInfo* v = scenario.info().variant(config.variant);
    if (v && v->recommended)
        title = LessonHandout::tr("%1 (recommended)").arg(title);
    return QStringLiteral("%1 <code>%2</code>").arg(escape(title), escape(config.variant));
}

QString configBlock(const Lesson& lesson, int frame, const QString& lang) {
    const LessonFrame& f = lesson.frames.at(frame);
    const std::optional<RunConfig> config = frameConfig(lesson, frame);
    if (!config)
        return {};
    QString h = QStringLiteral("<dl class='config'>");
    const auto row = [&h](const QString& term, const QString& html) {
        h += QStringLiteral("<dt>%1</dt><dd>%2</dd>").arg(escape(term), html);
    };
    if (f.load && !config->workbench.isEmpty()) {
        // A challenge's run: the starter's smallest failing run.
        const QString id = config->workbench.value(QLatin1String("challenge")).toString();
        const Challenge* challenge = findChallenge(id);
        row(LessonHandout::tr("Challenge"),
            QStringLiteral("%1 <code>%2</code>")
                .arg(escape(challenge ? challenge->title.in(lang) : id), escape(id)));
        row(LessonHandout::tr("Run"),
            escape(LessonHandout::tr("the starter's smallest failing run: schedule %1")
                       .arg(Schedule::fromJson(
                                config->workbench.value(QLatin1String("schedule")).toObject())
                                .text())));
    } else if (f.load) {
        const Scenario& scenario = *findScenario(config->scenario);
        QString title = Texts::instance().get(config->scenario, QStringLiteral("title"));
        if (title.isEmpty())
            title = config->scenario;
        row(LessonHandout::tr("Scenario"),
            QStringLiteral("%1 <code>%2</code>").arg(escape(title), escape(config->scenario)));
        row(LessonHandout::tr("Variant"), variantText(*config, scenario));
        row(LessonHandout::tr("Settings"), escape(settingsText(*config, scenario)));
    } else {
        int loaded = frame;
        while (loaded > 0 && !lesson.frames.at(loaded).load) --loaded;
        row(LessonHandout::tr("Run"),
            escape(LessonHandout::tr("the run of frame %1 goes on").arg(loaded + 1)));
    }
    const Scenario* scenario = findScenario(config->scenario);
    row(LessonHandout::tr("Pause"),
        escape(pauseSentence(f.pause, scenario ? scenario->info().words : ScenarioWords::none())));
    return h + QStringLiteral("</dl>");
}

// A frame on the Workbench page: the challenge, the starter the editor
// shows, and what Check finds in it (the same attack, on SQLite).
QString workbenchBlock(const LessonWorkbench& w, const QString& lang) {
    const Challenge* challenge = findChallenge(w.challenge);
    if (!challenge)
        return {};
    QString h = QStringLiteral("<dl class='config'><dt>%1</dt><dd>%2 <code>%3</code></dd></dl>")
                    .arg(escape(LessonHandout::tr("On the Workbench")),
                         escape(challenge->title.in(lang)), escape(challenge->id));
    if (w.starter) {
        h +=
            QStringLiteral("<p><strong>%1</strong></p><pre class='handler'>%2</pre>")
                .arg(escape(LessonHandout::tr("The starter handler:")), escape(challenge->starter));
    }
    if (w.check) {
        const AttackResult r = attackHandler(*challenge, challenge->starter,
                                             challenge->id + QStringLiteral(".js"), {});
        QString said;
        if (r.outcome == AttackResult::Outcome::Passed) {
            said = LessonHandout::tr("passed: %1 schedules run").arg(r.run);
        } else if (r.counterexample) {
            const Counterexample& c = *r.counterexample;
            said = LessonHandout::tr(
                       "failed (%1): %2 schedules run; the smallest failing run has %3 "
                       "attempts, %4 statements, %5 preemptions (schedule %6)")
                       .arg(verdictName(toId(c.summary.verdict)))
                       .arg(r.run)
                       .arg(c.attempts)
                       .arg(c.statements)
                       .arg(c.preemptions)
                       .arg(c.schedule);
        } else {
            said = r.message;
        }
        h += QStringLiteral("<p class='caption'><strong>%1</strong> %2</p>")
                 .arg(escape(LessonHandout::tr("Check on SQLite:")), escape(said));
    }
    return h;
}

// A long run's sequence diagram runs over many pages; the hand-out keeps
// the parts nearest the pause (the window too shows the newest rows).
constexpr qsizetype kMostSequenceParts = 3;

QString diagramsHtml(const RunDiagrams& diagrams) {
    QString h;
    const std::pair<const char*, const ReportDiagram*> shown[] = {{"state", &diagrams.state},
                                                                  {"sequence", &diagrams.sequence}};
    for (const auto& [kind, d] : shown) {
        const bool sequence = d == &diagrams.sequence;
        const qsizetype left =
            sequence ? std::max<qsizetype>(0, d->parts.size() - kMostSequenceParts) : 0;
        for (qsizetype i = left; i < d->parts.size(); ++i) {
            const QByteArray& svg = d->parts.at(i);
            const qsizetype start = svg.indexOf("<svg");
            h += QStringLiteral("<figure class='diagram %1'>").arg(QLatin1String(kind));
            if (i == left) {
                h += QStringLiteral("<figcaption>%1</figcaption>").arg(escape(d->title));
                if (left > 0) {
                    h += QStringLiteral("<p class='note'>%1</p>")
                             .arg(escape(
                                 LessonHandout::tr("The first %n part(s) of this diagram are "
                                                   "left out: the last %1 lead to the pause.",
                                                   nullptr, int(left))
                                     .arg(kMostSequenceParts)));
                }
            }
            h += QString::fromUtf8(start > 0 ? svg.mid(start) : svg) + QStringLiteral("</figure>");
        }
    }
    if (diagrams.sequence.parts.isEmpty()) {
        h += QStringLiteral("<p class='note nothing-sent'>%1</p>")
                 .arg(escape(LessonHandout::tr("No request has been sent yet at this pause: the "
                                               "sequence diagram begins with the first one.")));
    }
    return h;
}

// On a server: the lock waits, deadlocks and serialization failures up to
// the pause, each with the locks of its moment, and the locks held at the
// pause (nothing on SQLite, whose one writer the diagram shows).
QString lockStoryHtml(const Run& run, qsizetype upTo) {
    LockStory story;
    story.setBackend(run.config().backend);
    const QList<TraceEvent>& events = run.trace().events();
    for (qsizetype i = 0; i < upTo && i < events.size(); ++i) story.follow(events[i]);
    if (!story.told())
        return {};
    return QStringLiteral("<section class='locks-at-pause'><h3>%1</h3>%2</section>")
        .arg(escape(LessonHandout::tr("Locks on the server")),
             story.storyHtml(LessonHandout::tr("Locks at the pause:")));
}

QString choiceLetter(int index) {
    return QString(QChar(u'A' + index));
}

}  // namespace

QByteArray lessonToHtml(const Lesson& lesson, const QString& lang, QStringList* problems,
                        QString* failure, const std::atomic<bool>* cancel) {
    problems->clear();
    const int frames = int(lesson.frames.size());
    QString body;
    QHash<int, QString> answers;  // frame → the run's value
    bool locksShown = false;      // a frame ran on a server: its locks are shown
    for (int i = 0; i < frames; ++i) {
        const LessonFrame& f = lesson.frames.at(i);
        QString pauseHtml;
        const FrameCheck check = checkFrame(
            lesson, i,
            [&pauseHtml, &locksShown](const Run& run, qsizetype lastStepBegin) {
                const qsizetype upTo = run.trace().size();
                const QList<TraceEvent>& events = run.trace().events();
                const ScenarioInfo* info = &run.scenario().info();
                StepNarrator narrator(run.config().intents, &info->words);
                const QString said =
                    narrator
                        .narrate(events, lastStepBegin, upTo, true,
                                 [&events, info](qsizetype from, qsizetype to) {
                                     return StepCaption::describe(events, from, to, info);
                                 })
                        .text;
                if (!said.isEmpty()) {
                    pauseHtml += QStringLiteral("<p class='caption'><strong>%1</strong> %2</p>")
                                     .arg(escape(LessonHandout::tr("At the pause:")), escape(said));
                }
                pauseHtml += diagramsHtml(runDiagrams(run.scenario().info(), run.config().variant,
                                                      run.trace(), upTo, lastStepBegin));
                const QString locks = lockStoryHtml(run, upTo);
                locksShown = locksShown || !locks.isEmpty();
                pauseHtml += locks;
            },
            cancel);
        if (check.cancelled)
            return {};
        if (!check.failure.isEmpty()) {
            if (failure)
                *failure = check.failure;
            return {};
        }
        *problems << check.problems;
        if (f.question)
            answers.insert(i, check.answer);
        body += QStringLiteral("<section class='frame' id='frame-%1' data-frame='%1'>").arg(i + 1);
        body += QStringLiteral("<div class='intro'><h2><span class='number'>%1</span>%2</h2>")
                    .arg(escape(LessonHandout::tr("Frame %1 / %2").arg(i + 1).arg(frames)),
                         escape(f.title.in(lang)));
        body +=
            QStringLiteral("<div class='narration'>%1</div>").arg(paragraphs(f.narration.in(lang)));
        if (f.workbench)
            body += workbenchBlock(*f.workbench, lang);
        else
            body += configBlock(lesson, i, lang);
        if (const QString look = LessonPanel::lookAtText(lesson, i); !look.isEmpty())
            body += QStringLiteral("<p class='look'>%1</p>").arg(escape(look));
        body += QStringLiteral("</div>");
        if (const std::optional<MissingServer> missing = frameMissingServer(lesson, i);
            missing && !check.notRun.isEmpty()) {
            body += QStringLiteral("<p class='note missing-server'>%1</p>")
                        .arg(escape(LessonPanel::missingServerText(*missing)));
        } else if (missing) {
            body += QStringLiteral("<p class='note recorded-run'>%1</p>")
                        .arg(escape(LessonPanel::recordedRunText(*missing)));
        } else if (!f.workbench && frameConfig(lesson, i) && !check.paused &&
                   check.problems.isEmpty()) {
            body += QStringLiteral("<p class='note'>%1</p>")
                        .arg(escape(LessonHandout::tr(
                            "The run is loaded but not fired yet: the class sees only "
                            "its settings.")));
        }
        if (!f.workbench)  // the stage is behind the Workbench page
            body += pauseHtml;
        if (f.question) {
            const LessonQuestion& q = *f.question;
            body +=
                QStringLiteral("<div class='question'><p><strong>%1</strong> %2</p><ol type='A'>")
                    .arg(escape(LessonHandout::tr("Predict:")), escape(q.prompt.in(lang)));
            for (const LessonChoice& c : q.choices)
                body += QStringLiteral("<li>%1</li>").arg(escape(c.label.in(lang)));
            body += QStringLiteral("</ol><p class='blank'>%1</p></div>")
                        .arg(escape(LessonHandout::tr("Your answer: ______")));
        }
        body += QStringLiteral("</section>");
    }
    if (!problems->isEmpty())
        return {};

    QString h;
    const QString htmlLang =
        lang == QLatin1String("zh") ? QStringLiteral("zh-CN") : QStringLiteral("en");
    h += QStringLiteral(
             "<!DOCTYPE html><html lang='%1'><head><meta charset='utf-8'>%2"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
             "<title>%3</title><style>%4</style></head><body>")
             .arg(htmlLang, QLatin1String(labfiles::kHtmlGenerator),
                  escape(LessonHandout::tr("%1 — hand-out").arg(lesson.title.in(lang))),
                  QString::fromLatin1(kStyle) +
                      (locksShown ? QLatin1String(kLocksStyle) + QLatin1String(LockStory::kStyle)
                                  : QString()));
    h += QStringLiteral(
             "<header><h1>%1</h1><div class='summary'>%2</div><p class='meta'>%3</p>"
             "</header>")
             .arg(escape(lesson.title.in(lang)), paragraphs(lesson.summary.in(lang)),
                  escape(LessonHandout::tr("Idempotency Lab %1 · lesson %2 · %3 frames · "
                                           "%4 questions")
                             .arg(QLatin1String(kVersion), lesson.id)
                             .arg(frames)
                             .arg(lesson.questionCount())));
    h += body;
    if (!answers.isEmpty()) {
        h += QStringLiteral("<section class='answers' id='answers'><h2>%1</h2><p>%2</p><ul>")
                 .arg(escape(LessonHandout::tr("Answers")),
                      escape(LessonHandout::tr("Read from the runs, as the lesson reveals them.")));
        for (int i = 0; i < frames; ++i) {
            if (!answers.contains(i))
                continue;
            const LessonQuestion& q = *lesson.frames.at(i).question;
            const QString value = answers.value(i);
            int chosen = -1;
            for (int c = 0; c < q.choices.size(); ++c)
                if (q.choices.at(c).value == value)
                    chosen = c;
            const QString label = value.isEmpty() ? LessonHandout::tr("not run here (no server)")
                                                  : lessonAnswerLabel(q, value, lang);
            h += QStringLiteral(
                     "<li data-frame='%1' data-answer='%2'><strong>%3</strong> %4 → "
                     "<strong class='answer'>%5</strong>")
                     .arg(i + 1)
                     .arg(escape(value), escape(LessonHandout::tr("Frame %1:").arg(i + 1)),
                          escape(q.prompt.in(lang)),
                          escape(chosen >= 0
                                     ? QStringLiteral("%1. %2").arg(choiceLetter(chosen), label)
                                     : label));
            if (const QString why = q.why.in(lang); !why.isEmpty())
                h += QStringLiteral(" <span class='why'>%1</span>").arg(escape(why));
            h += QStringLiteral("</li>");
        }
        h += QStringLiteral("</ul></section>");
    }
    h += QStringLiteral("</body></html>\n");
    return h.toUtf8();
}

}  // namespace idem

namespace idem::cli {

namespace {

int fail(const QString& message, int code = BadInput) {
    return failWith(message, code);
}

// The window's choice: Chinese when the system speaks it, else English.
QString systemLanguage() {
    return QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh")
                                                            : QStringLiteral("en");
}

}  // namespace

int lessonExport(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption(
        {"format", "html: a page to print or send, answers on its last page.", "FORMAT"});
    parser.addOption({"lang",
                      "zh or en: the language of the hand-out (default: the system's, as the "
                      "window picks it).",
                      "LANG"});
    parser.addOption({"out", "File to write.", "FILE"});
    parser.addOption({"allow-large", "Run even a frame whose estimated cost is above the limit."});
    parser.addOption({"force",
                      "Replace an earlier output of idemlab at --out (never a file "
                      "idemlab did not write)."});
    parser.addPositionalArgument("ID|FILE", "A bundled lesson (see lesson list) or a lesson file.");
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab lesson export")} + args))
        return fail(parser.errorText());
    if (printedUsage(parser, QStringLiteral("lesson")))
        return Ok;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(
            QStringLiteral("usage: idemlab lesson export ID|FILE --format html --out FILE"));
    if (!parser.isSet("format"))
        return fail(QStringLiteral("--format FORMAT is required (allowed: html)"));
    if (parser.value("format") != QLatin1String("html"))
        return fail(
            QStringLiteral("unknown --format \"%1\" (allowed: html)").arg(parser.value("format")));
    const QString lang = parser.isSet("lang") ? parser.value("lang") : systemLanguage();
    if (lang != QLatin1String("zh") && lang != QLatin1String("en"))
        return fail(QStringLiteral("unknown --lang \"%1\" (allowed: zh, en)").arg(lang));
    if (!parser.isSet("out"))
        return fail(QStringLiteral("--out FILE is required"));
    const QString name = positional.first();
    Lesson lesson;
    QString error;
    int code = BadInput;
    if (!namedLesson(name, &lesson, &error, &code))
        return fail(error, code);
    if (const QString large = lessonTooLarge(name, lesson);
        !parser.isSet("allow-large") && !large.isEmpty())
        return fail(large);
    QList<NamedPath> inputs;
    if (QFileInfo::exists(name))
        inputs.append({QStringLiteral("the lesson"), name});
    if (const PathProblem problem = checkOutputs({{QStringLiteral("--out"), parser.value("out")}},
                                                 inputs, parser.isSet("force")))
        return fail(problem.message, problem.code);
    // What the path holds now is what it must hold when the hand-out lands.
    OutputFile outFile(parser.value("out"));

    // The hand-out's words, the diagrams' and the captions' in the language asked for.
    QTranslator translator;
    setCurrentLanguage(lang == QLatin1String("zh") ? Language::Chinese : Language::English);
    if (lang == QLatin1String("zh")) {
        if (!translator.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")))
            return fail(QStringLiteral("the Chinese translation is missing from this build"),
                        Failure);
        QCoreApplication::installTranslator(&translator);
    }
    QStringList problems;
    const Interruption interruption;
    QString failure;
    const QByteArray html = lessonToHtml(lesson, lang, &problems, &failure, Interruption::flag());
    if (Interruption::requested())
        return fail(QStringLiteral("stopped before the end: nothing was written"),
                    Interruption::exitCode());
    if (!failure.isEmpty())
        return fail(QStringLiteral("lesson %1, %2").arg(lesson.id, failure), Failure);
    if (!problems.isEmpty()) {
        for (const QString& p : problems)
            QTextStream(stderr) << "idemlab: lesson " << lesson.id << ", " << p << Qt::endl;
        return BadInput;
    }
    const Interruption::Held held;  // the hand-out lands whole or not at all
    if (!writeFileAtomically(outFile, html, &error))
        return fail(error, outFile.refused() ? BadInput : Failure);
    return Ok;
}

}  // namespace idem::cli
