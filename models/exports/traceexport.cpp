#include "traceexport.h"

#include "outofmemory.h"

#include <QBuffer>

#include <cerrno>
#include <cstring>

namespace idem {

namespace {

// A full buffer is written out: large enough that writing is a few big
// calls, small enough to be nothing beside a trace.
constexpr qsizetype kBufferBytes = 1 << 20;

// The system's words for what went wrong: errno right after the failing
// call (QFileDevice often reports only "Unknown error" for a full disk).
QString osWords(int err, const QIODevice& device) {
    if (err != 0)
        return QString::fromLocal8Bit(std::strerror(err));
    return device.errorString();
}

}  // namespace

void ExportOutput::write(const QByteArray& bytes) {
    if (failed())
        return;
    buffer_ += bytes;
    if (buffer_.size() >= kBufferBytes)
        flush();
}

bool ExportOutput::flush() {
    if (failed())
        return false;
    if (buffer_.isEmpty())
        return true;
    errno = 0;
    const qint64 written = device_.write(buffer_);
    if (written != buffer_.size()) {
        error_ = osWords(errno, device_);
        return false;
    }
    buffer_.clear();
    return true;
}

bool streamExport(const QList<ExportSource>& sources, TraceExport& format, ExportOutput& out,
                  const std::atomic<bool>* cancel, QString* error, bool* cancelled) {
    *cancelled = false;
    for (const ExportSource& source : sources) {
        TraceReader& reader = *source.reader;
        reader.setCancel(cancel);
        const auto fail = [&](const QString& why) {
            *cancelled = reader.cancelled();
            *error = QStringLiteral("%1: %2").arg(source.path, why);
            return false;
        };
        // The first read: the format's look (or its one pass) and the observer.
        const bool twice = format.twoPasses();
        const auto firstRead = [&](TraceEvent&& e, const QJsonObject& json) {
            if (source.observe)
                source.observe(json);
            if (twice) {
                format.look(e);
                return true;
            }
            format.add(e, out);
            return !out.failed();  // a full disk: reading on is wasted
        };
        const auto observed = [&](bool digestMatches) {
            return !source.observed || source.observed(digestMatches, error);
        };
        QString why;
        bool digestMatches = false;
        if (!twice)
            format.begin(source.run, out);
        const bool read = reader.readEvents(firstRead, &digestMatches, &why);
        if (out.failed())
            return false;  // the caller names the file
        if (!read)
            return fail(why);
        if (!twice) {
            format.end(out);
            if (!observed(digestMatches))
                return false;
            continue;
        }
        if (!observed(digestMatches))
            return false;
        format.begin(source.run, out);
        const bool again = reader.readEvents(
            [&format, &out](TraceEvent&& e, const QJsonObject&) {
                format.add(e, out);
                return !out.failed();
            },
            nullptr, &why);
        if (out.failed())
            return false;
        if (!again)
            return fail(why);
        format.end(out);
    }
    return true;
}

QByteArray exportEvents(const QList<QPair<ExportRun, QList<TraceEvent>>>& runs,
                        TraceExport& format) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    ExportOutput out(buffer);
    for (const auto& [run, events] : runs) {
        if (format.twoPasses()) {
            for (const TraceEvent& e : events) format.look(e);
        }
        format.begin(run, out);
        for (const TraceEvent& e : events) format.add(e, out);
        format.end(out);
    }
    out.flush();
    return bytes;
}

QByteArray exportEvents(const QList<TraceEvent>& events, TraceExport& format,
                        const ExportRun& run) {
    return exportEvents({{run, events}}, format);
}

bool writeExportFile(OutputFile& file, const ExportFill& fill, QString* error, bool* cancelled) {
    *cancelled = false;
    const QString& path = file.path();
    QString why;
    if (!file.open(&why)) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, why);
        return false;
    }
    ExportOutput out(file.device());
    const bool filled = fill(out, &why, cancelled);
    // A short write (a full disk) must not be committed: the path would get
    // the part that fit.
    if (!filled || !out.flush()) {
        file.cancel();
        *error = out.failed() ? QStringLiteral("cannot write %1: %2 (the file is left as it was)")
                                    .arg(path, out.error())
                              : why;
        return false;
    }
    if (memory::allocationFailed()) {
        file.cancel();
        *error = QStringLiteral("cannot write %1: %2").arg(path, memory::kOutOfMemory);
        return false;
    }
    if (!file.commit(&why)) {
        *error =
            file.refused()
                ? why
                : QStringLiteral("cannot write %1: %2 (the file is left as it was)").arg(path, why);
        return false;
    }
    return true;
}

}  // namespace idem
