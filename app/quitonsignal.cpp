#include "quitonsignal.h"

#include "scratchfiles.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <atomic>
#include <cstdlib>

namespace idem {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The handler's end of a socket pair, and the event loop's.
int handlerEnd = -1;
int loopEnd = -1;
std::atomic<int> received{0};

void onSignal(int number) {
    if (received.exchange(number) != 0) {
        // The event loop has not got to the first one: end now.
        scratch::removeAllNow();
        std::_Exit(128 + number);
    }
    const char byte = char(number);
    [[maybe_unused]] const ssize_t n = ::write(handlerEnd, &byte, 1);
}

}  // namespace

QuitOnSignal::QuitOnSignal(QObject* parent) : QObject(parent) {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        return;  // the default: the signal ends the window as before
    handlerEnd = ends[0];
    loopEnd = ends[1];
    ::fcntl(handlerEnd, F_SETFL, O_NONBLOCK);
    notifier_ = new QSocketNotifier(loopEnd, QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        if (::read(loopEnd, &byte, 1) != 1)
            return;
        notifier_->setEnabled(false);
        QCoreApplication::exit(128 + received.load());
    });
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    for (int s : kSignals) sigaddset(&action.sa_mask, s);
    action.sa_flags = SA_RESTART;
    for (int s : kSignals) sigaction(s, &action, nullptr);
}

QuitOnSignal::~QuitOnSignal() {
    if (!notifier_)
        return;
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    for (int s : kSignals) sigaction(s, &action, nullptr);
    ::close(handlerEnd);
    ::close(loopEnd);
    handlerEnd = loopEnd = -1;
}

}  // namespace idem
