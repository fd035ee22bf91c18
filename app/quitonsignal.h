// SIGTERM, SIGHUP and Ctrl+C sent to the window (a desktop session that
// ends, `kill`, a terminal closed): the window quits as it does from its
// menu, so that its runs' folders and its private servers go with it, and
// exits 128 + the signal's number. A second signal before that ends the
// program at once, after removing the runs' work files.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace idem {

class QuitOnSignal : public QObject {
public:
    explicit QuitOnSignal(QObject* parent = nullptr);
    ~QuitOnSignal() override;
    QuitOnSignal(const QuitOnSignal&) = delete;
    QuitOnSignal& operator=(const QuitOnSignal&) = delete;

private:
    QSocketNotifier* notifier_ = nullptr;
};

}  // namespace idem
