#include "shot.h"

#include "cli.h"
#include "configcheck.h"
#include "interruption.h"
#include "labfiles.h"
#include "lesson.h"
#include "lessoncommands.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "mainwindow.h"
#include "outputfile.h"
#include "outputpaths.h"
#include "playback.h"
#include "runcontroller.h"
#include "runoptions.h"
#include "soloview.h"
#include "stagedirector.h"
#include "tracewriters.h"
#include "usage.h"
#include "workbenchview.h"

#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QTextStream>

#include <algorithm>
#include <limits>

namespace idem::cli {

namespace {
int fail(const QString& message, int code = BadInput) {
    return failWith(message, code);
}

QMap<QString, SoloView::View> aloneViews() {
    return {{"sequence", SoloView::View::Sequence},
            {"state", SoloView::View::State},
            {"tables", SoloView::View::Tables},
            {"compare", SoloView::View::Compare}};
}
}  // namespace

QStringList aloneViewIds() {
    // In the order F6 ... F9 bring them.
    return {"sequence", "state", "tables", "compare"};
}

QStringList themeIds() {
    return {"light", "dark"};
}

int shot(const QStringList& args) {
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    addRunOptions(parser);
    parser.addOption({"view", "View to capture: " + MainWindow::viewNames().join(", "), "NAME"});
    parser.addOption({"out", "PNG file to write.", "FILE"});
    parser.addOption({"lang", "zh or en.", "LANG", "en"});
    parser.addOption({"theme", "light or dark.", "THEME", "light"});
    parser.addOption({"presenter", "Presenter mode (large fonts, high contrast)."});
    parser.addOption({"size", "Window size WxH.", "WxH", "1600x1000"});
    parser.addOption({"step", "Stop at this step instead of the end.", "N"});
    parser.addOption(
        {"lesson", "Show a lesson (a bundled id or a lesson file) instead of a run.", "ID"});
    parser.addOption({"frame", "With --lesson: the frame to show (default 1).", "N"});
    parser.addOption({"alone",
                      "Capture the window with one view filling it (as F6 to F9 do): sequence, "
                      "state, tables or compare.",
                      "VIEW"});
    parser.addOption({"row-versions",
                      "With a run on PostgreSQL: show each row's xmin and xmax beside it, named "
                      "by whose transaction they are."});
    parser.addOption({"force",
                      "Replace an earlier output of idemlab at --out (never a file "
                      "idemlab did not write)."});
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab shot")} + args)) {
        return fail(parser.errorText());
    }
    if (printedUsage(parser, QStringLiteral("shot")))
        return Ok;
    RunConfig config;
    QString error;
    const bool lesson = parser.isSet("lesson");
    if (!lesson && !readRunOptions(parser, &config, &error))
        return fail(error);
    int frame = 1;
    if (parser.isSet("frame")) {
        const std::optional<qint64> n = parseWholeNumber(parser.value("frame"));
        if (!lesson)
            return fail(QStringLiteral("--frame needs --lesson"));
        if (!n || *n < 1 || *n > 10'000) {
            return fail(QStringLiteral("--frame %1 is not a frame number (allowed: 1 to 10000)")
                            .arg(shownValue(parser.value("frame"))));
        }
        frame = int(*n);
    }
    const QString view =
        parser.value("view").isEmpty() ? QStringLiteral("overview") : parser.value("view");
    if (!MainWindow::viewNames().contains(view)) {
        return fail(QStringLiteral("unknown view \"%1\" (allowed: %2)")
                        .arg(view, MainWindow::viewNames().join(", ")));
    }
    const QMap<QString, SoloView::View> alones = aloneViews();
    if (parser.isSet("alone") && !alones.contains(parser.value("alone"))) {
        return fail(QStringLiteral("unknown --alone %1 (allowed: %2)")
                        .arg(shownValue(parser.value("alone")), aloneViewIds().join(", ")));
    }
    if (!parser.isSet("out"))
        return fail(QStringLiteral("--out FILE.png is required"));
    const QString lang = parser.value("lang");
    if (lang != QLatin1String("zh") && lang != QLatin1String("en")) {
        return fail(QStringLiteral("unknown --lang %1 (allowed: zh, en)").arg(lang));
    }
    const QString theme = parser.value("theme");
    if (!themeIds().contains(theme)) {
        return fail(
            QStringLiteral("unknown --theme %1 (allowed: %2)").arg(theme, themeIds().join(", ")));
    }
    const QStringList wh = parser.value("size").split('x');
    // 0: not a whole number, refused below like any other size out of range.
    const int w = int(std::clamp<qint64>(parseWholeNumber(wh.value(0)).value_or(0), 0, 9999));
    const int h = wh.size() == 2
                      ? int(std::clamp<qint64>(parseWholeNumber(wh.value(1)).value_or(0), 0, 9999))
                      : 0;
    if (w < 320 || h < 240 || w > 8000 || h > 8000) {
        return fail(QStringLiteral("--size %1 is not WxH between 320x240 and 8000x8000")
                        .arg(shownValue(parser.value("size"))));
    }
    std::optional<qint64> step;
    if (parser.isSet("step")) {
        bool tooLarge = false;
        step = parseWholeNumber(parser.value("step"), &tooLarge);
        const qint64 max = std::numeric_limits<int>::max();
        if (!step || *step < 0 || *step > max) {
            return fail(QStringLiteral("--step %1 %2 (allowed: 0 to %3)")
                            .arg(shownValue(parser.value("step")),
                                 step || tooLarge ? QStringLiteral("is out of range")
                                                  : QStringLiteral("is not a whole number"))
                            .arg(max));
        }
    }
    if (lesson) {
        // The lesson is read and its runs estimated before the window runs any.
        Lesson read;
        int code = BadInput;
        if (!namedLesson(parser.value("lesson"), &read, &error, &code))
            return fail(error, code);
        if (const QString large = lessonTooLarge(parser.value("lesson"), read);
            !parser.isSet("allow-large") && !large.isEmpty())
            return fail(large);
    }
    QList<NamedPath> inputs;
    if (lesson && QFileInfo::exists(parser.value("lesson")))
        inputs.append({QStringLiteral("the lesson"), parser.value("lesson")});
    if (const PathProblem problem = checkOutputs({{QStringLiteral("--out"), parser.value("out")}},
                                                 inputs, parser.isSet("force")))
        return fail(problem.message, problem.code);
    // What the path holds now is what it must hold when the picture lands.
    OutputFile outFile(parser.value("out"));

    // The run and the picture happen in this thread, step by step through the
    // window: a signal ends the program at once (nothing is written yet),
    // and waits while the picture is written.
    const Interruption interruption(true);
    MainWindow window(false);
    window.setTheme(theme == QLatin1String("dark"), parser.isSet("presenter"), 100);
    window.setLanguage(lang);
    window.resize(w, h);
    window.show();
    if (lesson) {
        RunFailure failure = RunFailure::BadInput;
        if (!window.startLesson(parser.value("lesson"), frame - 1, &error, &failure))
            return fail(error, failure == RunFailure::BadInput ? BadInput : Failure);
        // A frame on a server gets to its pause in a worker: waited for here.
        LessonPlayer* player = window.lessonPlayer();
        player->finishArriving();
        window.workbenchView()->finishCheck();  // a frame that checks, for its result
        if (!player->fireError().isEmpty())
            return fail(player->fireError(),
                        player->fireFailure() == RunFailure::BadInput ? BadInput : Failure);
    } else {
        RunFailure failure = RunFailure::BadInput;
        if (!window.fire(config, &error, &failure))
            return fail(error, failure == RunFailure::BadInput ? BadInput : Failure);
        if (parser.isSet("row-versions")) {
            QCheckBox* versions = window.liveStage()->rowVersionsBox();
            if (!versions->isEnabled())
                return fail(
                    QStringLiteral("--row-versions needs a run on PostgreSQL "
                                   "(--backend postgres)"));
            versions->setChecked(true);
        }
        if (step) {
            window.playback().seek(int(*step));
        } else {
            window.playback().toEnd();
        }
    }
    if (parser.isSet("alone")) {
        window.soloView()->toggle(alones.value(parser.value("alone")));
        window.jobs()->finishNow();
    }
    QWidget* target = parser.isSet("alone") ? &window : window.viewWidget(view);
    if (!target)
        return fail(QStringLiteral("the view \"%1\" cannot be shown for this run").arg(view),
                    Failure);
    if (target != &window) {
        // One view alone, at the full size asked for: take it out of its
        // dock or splitter (this process ends after the picture).
        target->setParent(nullptr);
        target->resize(w, h);
        target->show();
    }
    // What a worker's hand-over leaves for the next frames (the SQL log, the
    // tables, the sequence diagram) is drawn now, as the window would have
    // it a few frames on.
    window.director()->showLaterNow();
    // A few passes, so that work a layout change queued for the next turn of
    // the event loop (rows fitted to the final column widths) is in the picture.
    for (int pass = 0; pass < 4; ++pass) QApplication::processEvents();
    QImage image = target->grab().toImage();
    image.setText(QLatin1String(labfiles::kPngKey), QLatin1String(labfiles::kPngValue));
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
        return fail(QStringLiteral("cannot encode the picture as PNG"), Failure);
    const Interruption::Held held;
    if (!writeFileAtomically(outFile, png, &error))
        return fail(error, outFile.refused() ? BadInput : Failure);
    return Ok;
}

}  // namespace idem::cli
