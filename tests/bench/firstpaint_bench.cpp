// Start-up to the first painted window: `lab` opens the real MainWindow,
// `minimal` a ten-line QMainWindow built with the same compiler flags and
// libraries. Each prints "painted NS" once its whole window has painted (NS:
// that moment on CLOCK_MONOTONIC, in nanoseconds), then quits. The process
// that started it subtracts the moment it started it: exec to first paint,
// without the tearing down that follows (firstpaint.py does this, pair by
// pair). Timing the whole process instead (/usr/bin/time) counts the
// teardown too, which is larger for the larger window.
//
//   python3 tests/bench/firstpaint.py [pairs]     (under X: DISPLAY, or Xvfb)
//   QT_QPA_PLATFORM=offscreen build/tests/bench/firstpaint_bench lab|minimal
#include "mainwindow.h"
#include "sweeper.h"
#include "texts.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <memory>

namespace {

// Quits the application after the watched widget's first paint.
class FirstPaint : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint && !seen_) {
            seen_ = true;
            // Once the whole window has painted (the rest of this paint pass):
            // the moment on the system's monotonic clock, which the process
            // that started this one reads too, then quit.
            QTimer::singleShot(0, qApp, [] {
                timespec now{};
                clock_gettime(CLOCK_MONOTONIC, &now);
                std::printf("painted %lld\n", qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec);
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool seen_ = false;
};

}  // namespace

int main(int argc, char** argv) {
    const bool minimal = argc > 1 && QString::fromLocal8Bit(argv[1]) == QLatin1String("minimal");
    if (!minimal) {  // as idemlab's window starts
        idem::Sweeper::freeEvenly();
        idem::Texts::loadInBackground();
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("idemlab-bench"));
    std::unique_ptr<QMainWindow> window;
    if (minimal) {
        window = std::make_unique<QMainWindow>();
        window->menuBar()->addMenu(QStringLiteral("File"));
        window->setCentralWidget(new QLabel(QStringLiteral("Idempotency Lab")));
        window->statusBar()->showMessage(QStringLiteral("ready"));
    } else {
        window = std::make_unique<idem::MainWindow>(false);
    }
    FirstPaint watch;
    window->installEventFilter(&watch);
    window->resize(1280, 720);
    window->show();
    return QApplication::exec();
}
