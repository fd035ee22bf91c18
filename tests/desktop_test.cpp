// The window as a desktop program: a trace opened (File → Open trace, Open
// recent, `idemlab FILE`) replays in it, the traces opened last are
// remembered, and File → Export writes what `idemlab export` and `idemlab
// lesson export` write, asking before it replaces a file and never over the
// trace that is open.
#include "firepanel.h"
#include "lessonhandout.h"
#include "lessonplayer.h"
#include "mainwindow.h"
#include "playback.h"
#include "recenttraces.h"
#include "registry.h"
#include "runcontroller.h"
#include "settings.h"
#include "stagedirector.h"
#include "tracecommands.h"
#include "windowexports.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeDatabase>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace idem;

namespace {

void finishAll(MainWindow& w) {
    for (int i = 0; i < 10 && w.jobs()->isBusy(); ++i) w.jobs()->finishNow();
}

QByteArray bytesOf(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

RunConfig config(const QString& scenario, const QString& variant = {}) {
    RunConfig c = defaultConfig(*findScenario(scenario));
    if (!variant.isEmpty())
        c.variant = variant;
    return c;
}

// Calls `answer` with the first dialog of type T that comes up, from within
// the modal loop that shows it.
template <typename T>
void whenShown(std::function<void(T*)> answer) {
    auto* poll = new QTimer;
    poll->setInterval(30);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, answer] {
        for (QWidget* top : QApplication::topLevelWidgets()) {
            if (auto* dialog = qobject_cast<T*>(top); dialog && dialog->isVisible()) {
                poll->stop();
                poll->deleteLater();
                answer(dialog);
                return;
            }
        }
    });
    poll->start();
}

// Types `path` into a save dialog and presses Save, as a person does.
void choose(QFileDialog* dialog, const QString& path) {
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    QVERIFY(name);
    name->setText(path);
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog's own, virtual
}

}  // namespace

class DesktopTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }
    // A trace of `c` saved by the window.
    QString savedTrace(const RunConfig& c, const QString& name);

private slots:
    void initTestCase();
    void init() { QSettings().clear(); }
    void aTraceIsAFileTypeOfItsOwn();
    void aTraceOpensOnItsRun();
    void aBadTraceIsSaidAndTheWindowGoesOn();
    void recentTracesAreRememberedNewestFirst();
    void aRecentTraceNoLongerThereIsGreyed();
    void recentIsReachableFromTheKeyboard();
    void exportsWriteWhatTheCommandLineWrites();
    void theOpenTraceIsNeverWrittenOver();
    void replacingAFileIsAskedFirst();
    void theHandoutIsTheLessonOnScreen();
};

void DesktopTest::initTestCase() {
    QVERIFY(dir_.isValid());
    // The package's file type beside the system's, before anything asks
    // what a file is (Qt reads the folders once).
    QVERIFY(QDir().mkpath(path("share/mime/packages")));
    QVERIFY(QFile::copy(IDEM_SOURCE_DIR "/resources/desktop/idemlab-mime.xml",
                        path("share/mime/packages/idemlab.xml")));
    qputenv("XDG_DATA_DIRS", QFile::encodeName(path("share")) + ":/usr/local/share:/usr/share");
    QApplication::setApplicationName("idemlab-test");
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, path("settings"));
}

QString DesktopTest::savedTrace(const RunConfig& c, const QString& name) {
    MainWindow w(false);
    QString error;
    if (!w.fire(c, &error))
        qFatal("%s", qPrintable(error));
    w.saveTraceTo(path(name));
    finishAll(w);
    return path(name);
}

// What a file manager asks (here through Qt's MIME database, as KDE's does):
// a trace is known by its name, *.idemlab.json, and without it by its first
// bytes; other JSON stays JSON.
void DesktopTest::aTraceIsAFileTypeOfItsOwn() {
    const QString trace = savedTrace(config("order-create"), "named.idemlab.json");
    QVERIFY(QFile::copy(trace, path("unnamed")));
    QVERIFY(writeBytes(path("other.json"), "{\"format\": \"something else\"}"));
    const QMimeDatabase mime;
    QCOMPARE(mime.mimeTypeForFile(trace).name(), QStringLiteral("application/x-idemlab-trace"));
    QCOMPARE(mime.mimeTypeForFile(path("unnamed")).name(),
             QStringLiteral("application/x-idemlab-trace"));
    QVERIFY(mime.mimeTypeForName("application/x-idemlab-trace").inherits("application/json"));
    QCOMPARE(mime.mimeTypeForFile(path("other.json")).name(), QStringLiteral("application/json"));
}

void DesktopTest::aTraceOpensOnItsRun() {
    const QString trace = savedTrace(config("payment-callback", "none"), "callback.idemlab.json");
    MainWindow w(false);
    w.show();
    QString error;
    QVERIFY2(w.fire(config("order-create"), &error), qPrintable(error));
    w.openTraceAt(trace);
    finishAll(w);
    QCOMPARE(w.playback().config().scenario, QStringLiteral("payment-callback"));
    QCOMPARE(w.playback().config().variant, QStringLiteral("none"));
    QCOMPARE(w.firePanel()->config().variant, QStringLiteral("none"));
    QCOMPARE(w.recentTraces()->paths(), QStringList{trace});
    // The title names the file on show, as long as it is on show.
    QVERIFY2(w.windowTitle().startsWith(QStringLiteral("callback.idemlab.json — ")),
             qPrintable(w.windowTitle()));
    w.fireInBackground(config("order-create"));
    finishAll(w);
    QVERIFY2(!w.windowTitle().contains(QStringLiteral(".json")), qPrintable(w.windowTitle()));
}

void DesktopTest::aBadTraceIsSaidAndTheWindowGoesOn() {
    const QString bad = path("bad.json");
    QVERIFY(writeBytes(bad, "{\"format\":\"idemlab-trace\",\"version\":3,\"config\":"));
    // As `idemlab bad.json` starts: the window shown, the trace asked for at once.
    MainWindow w(false);
    QSignalSpy errors(w.director(), &StageDirector::errorRaised);
    w.show();
    w.openTraceAt(bad);
    QTRY_VERIFY_WITH_TIMEOUT(w.playback().isLoaded(), 20000);
    finishAll(w);
    QCOMPARE(errors.size(), 1);
    const QString said = errors.first().at(1).toString();
    QVERIFY2(said.startsWith(bad + ": ") && said.size() > bad.size() + 10, qPrintable(said));
    // The window goes on with the scenario it would have shown.
    QCOMPARE(w.playback().config().scenario, w.firePanel()->config().scenario);
    QVERIFY(w.recentTraces()->paths().isEmpty());
    // The file stays as it was, and the window does not write over it.
    w.saveTraceTo(bad);
    finishAll(w);
    QCOMPARE(bytesOf(bad), QByteArray("{\"format\":\"idemlab-trace\",\"version\":3,\"config\":"));
}

void DesktopTest::recentTracesAreRememberedNewestFirst() {
    const QString a = savedTrace(config("order-create"), "a.json");
    const QString b = savedTrace(config("payment-callback"), "b.json");
    {
        MainWindow w(true);
        for (const QString& trace : {a, b, a}) {
            w.openTraceAt(trace);
            finishAll(w);
        }
        QCOMPARE(w.recentTraces()->paths(), (QStringList{a, b}));
    }
    MainWindow again(true);
    QCOMPARE(again.recentTraces()->paths(), (QStringList{a, b}));
    QMenu* menu = again.recentTraces()->menu();
    emit menu->aboutToShow();
    QList<QAction*> entries;
    for (QAction* action : menu->actions()) {
        if (!action->data().toString().isEmpty())
            entries << action;
    }
    QCOMPARE(entries.size(), 2);
    QVERIFY2(entries[0]->text().startsWith("&1 a.json"), qPrintable(entries[0]->text()));
    QVERIFY2(entries[1]->text().startsWith("&2 b.json"), qPrintable(entries[1]->text()));
    entries[1]->trigger();
    finishAll(again);
    QCOMPARE(again.playback().config().scenario, QStringLiteral("payment-callback"));
    QCOMPARE(again.recentTraces()->paths(), (QStringList{b, a}));
    // At most kMost, the oldest dropped.
    for (int i = 0; i < RecentTraces::kMost + 2; ++i)
        again.recentTraces()->add(path(QStringLiteral("t%1.json").arg(i)));
    QCOMPARE(again.recentTraces()->paths().size(), RecentTraces::kMost);
    QCOMPARE(again.recentTraces()->paths().first(), path("t9.json"));
    QCOMPARE(QSettings().value(settings::kRecentTraces).toStringList().size(), RecentTraces::kMost);
    again.recentTraces()->clear();
    QVERIFY(QSettings().value(settings::kRecentTraces).toStringList().isEmpty());
}

void DesktopTest::aRecentTraceNoLongerThereIsGreyed() {
    const QString kept = savedTrace(config("order-create"), "kept.json");
    const QString gone = savedTrace(config("order-create"), "gone.json");
    MainWindow w(true);
    w.recentTraces()->add(kept);
    w.recentTraces()->add(gone);
    QVERIFY(QFile::remove(gone));
    QMenu* menu = w.recentTraces()->menu();
    emit menu->aboutToShow();
    int checked = 0;
    for (QAction* action : menu->actions()) {
        if (action->data().toString() == gone) {
            QVERIFY(!action->isEnabled());
            QVERIFY2(action->text().contains("no longer there"), qPrintable(action->text()));
            ++checked;
        } else if (action->data().toString() == kept) {
            QVERIFY(action->isEnabled());
            ++checked;
        }
    }
    QCOMPARE(checked, 2);
}

void DesktopTest::recentIsReachableFromTheKeyboard() {
    const QString trace = savedTrace(config("payment-callback", "none"), "keys.json");
    QSettings().setValue(settings::kFirstLessonOffered, true);  // no welcome over the menus
    MainWindow w(true);
    w.recentTraces()->add(trace);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QString error;
    QVERIFY2(w.fire(config("order-create"), &error), qPrintable(error));
    // Alt+F, R (Open recent), 1 (the newest).
    QTest::keyClick(&w, Qt::Key_F, Qt::AltModifier);
    QTRY_VERIFY(qobject_cast<QMenu*>(QApplication::activePopupWidget()));
    QCOMPARE(QApplication::activePopupWidget()->objectName(), QStringLiteral("file"));
    QTest::keyClick(QApplication::activePopupWidget(), Qt::Key_R);
    QTRY_COMPARE(QApplication::activePopupWidget(), w.recentTraces()->menu());
    QTest::keyClick(QApplication::activePopupWidget(), Qt::Key_1);
    QTRY_VERIFY(!QApplication::activePopupWidget());
    finishAll(w);
    QCOMPARE(w.playback().config().scenario, QStringLiteral("payment-callback"));
    QCOMPARE(w.playback().config().variant, QStringLiteral("none"));
}

void DesktopTest::exportsWriteWhatTheCommandLineWrites() {
    const QString trace = savedTrace(config("payment-callback", "none"), "cli.json");
    MainWindow w(false);
    w.show();
    QString error;
    QVERIFY2(w.fire(config("payment-callback", "none"), &error), qPrintable(error));
    w.playback().stepForward();
    const QList<QPair<WindowExports::Format, QString>> formats{
        {WindowExports::Format::Report, "html"},
        {WindowExports::Format::Spreadsheet, "xlsx"},
        {WindowExports::Format::Mermaid, "mermaid"},
        {WindowExports::Format::PlantUml, "plantuml"}};
    for (const auto& [format, name] : formats) {
        QVERIFY(w.action("export-" + QString(name == "html" ? "report" : name))->isEnabled());
        const QString fromWindow = path("window." + name);
        const QString fromCli = path("cli." + name);
        w.exports()->writeRun(format, fromWindow);
        finishAll(w);
        QVERIFY2(w.messages()->currentMessage().contains(fromWindow),
                 qPrintable(w.messages()->currentMessage()));
        QCOMPARE(cli::exportTrace({trace, "--format", name, "--out", fromCli}), 0);
        const QByteArray window = bytesOf(fromWindow);
        QVERIFY(window.size() > 200);
        QVERIFY2(window == bytesOf(fromCli), qPrintable(name));
    }
}

void DesktopTest::theOpenTraceIsNeverWrittenOver() {
    const QString trace = savedTrace(config("payment-callback", "none"), "open.json");
    const QByteArray before = bytesOf(trace);
    MainWindow w(false);
    w.show();
    w.openTraceAt(trace);
    finishAll(w);
    QVERIFY(w.playback().isLoaded());
    const QString sameFile = dir_.path() + "/./open.json";
    w.saveTraceTo(sameFile);
    finishAll(w);
    QVERIFY2(w.messages()->currentMessage().contains("opened"),
             qPrintable(w.messages()->currentMessage()));
    for (auto format : {WindowExports::Format::Report, WindowExports::Format::Mermaid}) {
        w.messages()->clearMessage();
        w.exports()->writeRun(format, trace);
        finishAll(w);
        QVERIFY(w.messages()->currentMessage().contains("opened"));
    }
    QCOMPARE(bytesOf(trace), before);
}

void DesktopTest::replacingAFileIsAskedFirst() {
    const QString existing = path("existing.html");
    QVERIFY(writeBytes(existing, "keep me"));
    MainWindow w(false);
    w.show();
    QString error;
    QVERIFY2(w.fire(config("order-create"), &error), qPrintable(error));
    bool asked = false;
    // No: the dialog stays, the file as it was; then the dialog is cancelled.
    whenShown<QFileDialog>([&](QFileDialog* dialog) {
        whenShown<QMessageBox>([&, dialog](QMessageBox* box) {
            asked = box->text().contains("existing.html");
            box->button(QMessageBox::No)->click();
            QTimer::singleShot(100, dialog, &QDialog::reject);
        });
        choose(dialog, existing);
    });
    w.action("export-report")->trigger();
    finishAll(w);
    QVERIFY(asked);
    QCOMPARE(bytesOf(existing), QByteArray("keep me"));
    // Yes: replaced by the report.
    whenShown<QFileDialog>([&](QFileDialog* dialog) {
        whenShown<QMessageBox>([](QMessageBox* box) { box->button(QMessageBox::Yes)->click(); });
        choose(dialog, existing);
    });
    w.action("export-report")->trigger();
    finishAll(w);
    QVERIFY(bytesOf(existing).startsWith("<!DOCTYPE html>"));
}

void DesktopTest::theHandoutIsTheLessonOnScreen() {
    MainWindow w(false);
    w.show();
    QVERIFY(!w.action("export-handout")->isEnabled());
    QString error;
    QVERIFY2(w.startLesson("unique-key", 0, &error), qPrintable(error));
    QVERIFY(w.action("export-handout")->isEnabled());
    const QString fromWindow = path("handout-window.html");
    const QString fromCli = path("handout-cli.html");
    QVERIFY2(w.exports()->writeHandout(fromWindow, &error), qPrintable(error));
    QCOMPARE(
        cli::lessonExport({"unique-key", "--format", "html", "--lang", "en", "--out", fromCli}), 0);
    QVERIFY(bytesOf(fromWindow).contains(w.lessonPlayer()->lesson().title.in("en").toUtf8()));
    QVERIFY(bytesOf(fromWindow) == bytesOf(fromCli));
    w.lessonPlayer()->stop();
    QVERIFY(!w.action("export-handout")->isEnabled());
}

QTEST_MAIN(DesktopTest)
#include "desktop_test.moc"
