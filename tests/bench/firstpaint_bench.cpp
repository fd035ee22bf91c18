// Start-up to the first painted window, as a whole process: `lab` opens the
// real MainWindow, `minimal` a ten-line QMainWindow built with the same
// compiler flags and libraries. Each quits once its window has painted, so
// timing the two processes side by side (any whole-process timer, e.g.
// /usr/bin/time) compares exec-to-first-paint.
//
//   QT_QPA_PLATFORM=offscreen build/tests/bench/firstpaint_bench lab
//   QT_QPA_PLATFORM=offscreen build/tests/bench/firstpaint_bench minimal
#include "mainwindow.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>

#include <memory>

namespace {

// Quits the application after the watched widget's first paint.
class FirstPaint : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint && !seen_) {
            seen_ = true;
            QTimer::singleShot(0, qApp, &QCoreApplication::quit);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool seen_ = false;
};

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("idemlab-bench"));
    const bool minimal = argc > 1 && QString::fromLocal8Bit(argv[1]) == QLatin1String("minimal");
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
