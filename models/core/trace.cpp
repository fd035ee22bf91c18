#include "trace.h"

#include "outofmemory.h"
#include "outputfile.h"

#include "runconfig.h"

#include <QFileInfo>
#include <QJsonDocument>

#include <cerrno>
#include <cstring>

namespace idem {

namespace {

constexpr qsizetype kFlushAt = 1 << 20;

QByteArray headerBytes(const RunConfig& config) {
    return QByteArray("{\"format\":\"") + Trace::kFormat +
           "\",\"version\":" + QByteArray::number(Trace::kVersion) +
           ",\"config\":" + QJsonDocument(config.toJson()).toJson(QJsonDocument::Compact) +
           ",\n\"events\":[";
}

QByteArray summaryBytes(const QJsonObject& summary) {
    return QJsonDocument(summary).toJson(QJsonDocument::Compact);
}

}  // namespace

// --- in memory -------------------------------------------------------------------

QByteArray Trace::toJson(const RunConfig& config, const QJsonObject& summary) const {
    Sha256 digest;
    QByteArray out = headerBytes(config);
    for (qsizetype i = 0; i < events_.size(); ++i) {
        const QByteArray e = events_[i].toJsonBytes();
        out += i == 0 ? "\n" : ",\n";
        out += e;
        digest.addData(e);
        digest.addData("\n");
    }
    const QByteArray s = summaryBytes(summary);
    digest.addData(s);
    out += "\n],\n\"summary\":" + s + ",\n\"digest\":\"sha256:" + digest.result().toHex() + "\"}\n";
    return out;
}

bool Trace::save(const QString& path, const RunConfig& config, const QJsonObject& summary,
                 QString* error) const {
    TraceFileWriter writer;
    if (!writer.open(path, config, error))
        return false;
    for (const TraceEvent& e : events_) writer.add(e);
    return writer.commit(summary, error);
}

// --- streamed to a file ------------------------------------------------------------

TraceFileWriter::TraceFileWriter() = default;
TraceFileWriter::~TraceFileWriter() {
    cancel();
}

bool TraceFileWriter::open(const QString& path, const RunConfig& config, QString* error) {
    path_ = path;
    error_.clear();
    refused_ = false;
    first_ = true;
    digest_.reset();
    file_ = std::make_unique<OutputFile>(path);
    QString why;
    if (!file_->open(&why)) {
        *error = QStringLiteral("cannot write the trace to %1: %2").arg(path, why);
        file_.reset();
        return false;
    }
    buffer_ = headerBytes(config);
    return true;
}

void TraceFileWriter::started(const RunConfig& config) {
    // Nothing is written before the first event: the header says the run as
    // it runs.
    if (file_ && first_ && !failed())
        buffer_ = headerBytes(config);
}

void TraceFileWriter::add(const TraceEvent& event) {
    if (!file_ || failed())
        return;
    const QByteArray e = event.toJsonBytes();
    buffer_ += first_ ? "\n" : ",\n";
    first_ = false;
    buffer_ += e;
    digest_.addData(e);
    digest_.addData("\n");
    if (buffer_.size() >= kFlushAt)
        flush();
}

void TraceFileWriter::flush() {
    if (buffer_.isEmpty() || failed())
        return;
    QFile& device = file_->device();
    errno = 0;
    if (device.write(buffer_) != buffer_.size() || !device.flush()) {
        // QFileDevice reports a failed buffered write as "Unknown error";
        // the system's own words (errno, kept since the write) say what
        // happened.
        const int code = errno;
        error_ = QStringLiteral("cannot write the trace to %1: %2")
                     .arg(path_, code != 0 ? QString::fromLocal8Bit(std::strerror(code))
                                           : device.errorString());
    }
    buffer_.clear();
}

bool TraceFileWriter::commit(const QJsonObject& summary, QString* error) {
    if (!file_) {
        *error = QStringLiteral("the trace %1 was not opened").arg(path_);
        return false;
    }
    const QByteArray s = summaryBytes(summary);
    digest_.addData(s);
    buffer_ +=
        "\n],\n\"summary\":" + s + ",\n\"digest\":\"sha256:" + digest_.result().toHex() + "\"}\n";
    flush();
    if (failed() || memory::allocationFailed()) {
        *error = failed() ? error_
                          : QStringLiteral("cannot write the trace to %1: %2")
                                .arg(path_, memory::kOutOfMemory);
        cancel();
        return false;
    }
    QString why;
    const bool committed = file_->commit(&why);
    refused_ = file_->refused();
    file_.reset();
    if (!committed) {
        *error =
            refused_ ? why : QStringLiteral("cannot write the trace to %1: %2").arg(path_, why);
        return false;
    }
    return true;
}

void TraceFileWriter::cancel() {
    if (file_)
        file_->cancel();
    file_.reset();
    buffer_.clear();
}

}  // namespace idem
