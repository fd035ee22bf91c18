#include "run.h"

#include <atomic>

#include "runhooks.h"
#include "scheduler.h"

namespace idem {

Run::Run(const RunConfig& config, const Scenario& scenario, RunOptions options)
    : scheduler_(std::make_unique<Scheduler>(config, scenario, std::move(options))) {}

namespace {
std::atomic<RunEnded> runEnded{nullptr};
}  // namespace

void setRunEndedHook(RunEnded hook) {
    runEnded = hook;
}

Run::~Run() {
    if (const RunEnded hook = runEnded.load(); hook && scheduler_)
        hook(scheduler_->config());
}

quint64 Run::threadSerial() {
    static std::atomic<quint64> next{1};
    thread_local const quint64 serial = next.fetch_add(1, std::memory_order_relaxed);
    return serial;
}

bool Run::start(QString* error) {
    startedOn_ = threadSerial();
    return scheduler_->start(error);
}
void Run::setCancel(const std::atomic<bool>* cancel) {
    scheduler_->setCancel(cancel);
}
void Run::setWaitStop(const std::atomic<bool>* stop) {
    scheduler_->setWaitStop(stop);
}
bool Run::step() {
    return scheduler_->step();
}
bool Run::atEnd() const {
    return scheduler_->atEnd();
}
void Run::runToEnd() {
    scheduler_->runToEnd();
}
bool Run::finish(QString* error) {
    return scheduler_->finish(error);
}
Summary Run::judgeNow(Reader& reader) const {
    return scheduler_->judgeNow(reader);
}
std::vector<Run::Answer> Run::answersOf(int intent) const {
    return scheduler_->answersOf(intent);
}
const RunConfig& Run::config() const {
    return scheduler_->config();
}
const Scenario& Run::scenario() const {
    return scheduler_->scenario();
}
const VariantInfo& Run::variant() const {
    return scheduler_->variant();
}
const Trace& Run::trace() const {
    return scheduler_->trace();
}
bool Run::dropLastEvents(qsizetype n) {
    return scheduler_->dropLastEvents(n);
}
qint64 Run::now() const {
    return scheduler_->now();
}
qint64 Run::eventCount() const {
    return scheduler_->eventCount();
}
RunFailure Run::failure() const {
    return scheduler_->failure();
}
QString Run::failureMessage() const {
    return scheduler_->failureMessage();
}
const Summary& Run::summary() const {
    return scheduler_->summary();
}
std::unique_ptr<SqlConnection> Run::openReader() const {
    return scheduler_->openReader();
}
SqlConnection* Run::openWriter() const {
    return scheduler_->openWriter();
}
QString Run::databasePath() const {
    return scheduler_->databasePath();
}
const Backend& Run::backend() const {
    return scheduler_->backend();
}
Backend& Run::backend() {
    return scheduler_->backend();
}
QString Run::keepRedis() {
    return scheduler_->keepRedis();
}
bool Run::tracing() const {
    return scheduler_->tracing();
}

}  // namespace idem
