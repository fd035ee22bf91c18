#include "interruption.h"

#include "scratchfiles.h"

#include <signal.h>
#include <cstdlib>

namespace idem::cli {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<bool> requestedFlag{false};
std::atomic<bool> endAtOnce{false};
std::atomic<int> signalNumber{0};
struct sigaction previous[3];

void onSignal(int number) {
    if (requestedFlag.load() || endAtOnce.load()) {
        // The second one: nobody is waiting for the tidy stop any more.
        scratch::removeAllNow();
        std::_Exit(128 + number);
    }
    // The number first: whoever sees the flag reads the exit code next.
    signalNumber = number;
    requestedFlag = true;
}

sigset_t stopSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : kSignals) sigaddset(&set, s);
    return set;
}

}  // namespace

Interruption::Interruption(bool atOnce) {
    requestedFlag = false;
    endAtOnce = atOnce;
    signalNumber = 0;
    struct sigaction action {};
    action.sa_handler = onSignal;
    // One handler at a time: a second signal waits until the first is noted.
    action.sa_mask = stopSignals();
    for (std::size_t i = 0; i < std::size(kSignals); ++i)
        sigaction(kSignals[i], &action, &previous[i]);
}

Interruption::~Interruption() {
    endAtOnce = false;
    for (std::size_t i = 0; i < std::size(kSignals); ++i)
        sigaction(kSignals[i], &previous[i], nullptr);
}

const std::atomic<bool>* Interruption::flag() {
    return &requestedFlag;
}

bool Interruption::requested() {
    return requestedFlag.load();
}

int Interruption::exitCode() {
    const int number = signalNumber.load();
    return 128 + (number == 0 ? SIGINT : number);
}

Interruption::Held::Held() {
    const sigset_t set = stopSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

Interruption::Held::~Held() {
    const sigset_t set = stopSignals();
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace idem::cli
