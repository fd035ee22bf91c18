#include "shot.h"

#include "cli.h"
#include "mainwindow.h"
#include "playback.h"
#include "runoptions.h"
#include "usage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QImage>
#include <QPixmap>
#include <QSaveFile>
#include <QTextStream>

namespace idem::cli {

namespace {
int fail(const QString& message, int code = BadInput) {
    QTextStream(stderr) << "idemlab: " << message << Qt::endl;
    return code;
}
}  // namespace

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
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab shot")} + args)) {
        return fail(parser.errorText());
    }
    if (printedUsage(parser, QStringLiteral("shot")))
        return Ok;
    RunConfig config;
    QString error;
    if (!readRunOptions(parser, &config, &error))
        return fail(error);
    const QString view =
        parser.value("view").isEmpty() ? QStringLiteral("overview") : parser.value("view");
    if (!MainWindow::viewNames().contains(view)) {
        return fail(QStringLiteral("unknown view \"%1\" (allowed: %2)")
                        .arg(view, MainWindow::viewNames().join(", ")));
    }
    if (!parser.isSet("out"))
        return fail(QStringLiteral("--out FILE.png is required"));
    const QString lang = parser.value("lang");
    if (lang != QLatin1String("zh") && lang != QLatin1String("en")) {
        return fail(QStringLiteral("unknown --lang %1 (allowed: zh, en)").arg(lang));
    }
    const QString theme = parser.value("theme");
    if (theme != QLatin1String("light") && theme != QLatin1String("dark")) {
        return fail(QStringLiteral("unknown --theme %1 (allowed: light, dark)").arg(theme));
    }
    const QStringList wh = parser.value("size").split('x');
    const int w = wh.value(0).toInt();
    const int h = wh.size() == 2 ? wh.value(1).toInt() : 0;
    if (w < 320 || h < 240 || w > 8000 || h > 8000) {
        return fail(QStringLiteral("--size %1 is not WxH between 320x240 and 8000x8000")
                        .arg(parser.value("size")));
    }

    MainWindow window(false);
    window.setTheme(theme == QLatin1String("dark"), parser.isSet("presenter"), 100);
    window.setLanguage(lang);
    window.resize(w, h);
    window.show();
    if (!window.fire(config, &error))
        return fail(error);
    if (parser.isSet("step")) {
        window.playback().seek(parser.value("step").toInt());
    } else {
        window.playback().toEnd();
    }
    QWidget* target = window.viewWidget(view);
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
    QApplication::processEvents();
    const QImage image = target->grab().toImage();
    QSaveFile file(parser.value("out"));
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        return fail(
            QStringLiteral("cannot write %1: %2").arg(parser.value("out"), file.errorString()),
            Failure);
    }
    return Ok;
}

}  // namespace idem::cli
