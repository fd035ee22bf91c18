// Reads trace files in pieces: a scanner finds the bounds of each JSON value
// without building it, and only one event at a time becomes a QJsonObject.
#include "jsonkeys.h"
#include "trace.h"

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace idem {

namespace {

constexpr qsizetype kChunk = 1 << 20;
// The config, the summary and any one event are small; a value larger than
// this is not something this program wrote.
constexpr qsizetype kMaxValue = 256 << 20;
constexpr int kMaxDepth = 256;

// A forward reader over a file that knows JSON's structure: strings, nesting
// and the ends of literals, and nothing else.
class Scanner {
public:
    explicit Scanner(QIODevice& file) : file_(file) {}

    qint64 offset() const { return base_ + pos_; }
    bool seek(qint64 offset) {
        buffer_.clear();
        pos_ = 0;
        base_ = offset;
        return file_.seek(offset);
    }
    int peek() {
        if (pos_ >= buffer_.size() && !fill())
            return -1;
        return static_cast<unsigned char>(buffer_[pos_]);
    }
    int next() {
        const int c = peek();
        if (c >= 0)
            ++pos_;
        return c;
    }
    int peekNonSpace() {
        for (;;) {
            const int c = peek();
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                return c;
            ++pos_;
        }
    }
    // Reads one whole value; its bytes go to out unless out is null.
    bool value(QByteArray* out, QString* error) {
        const int first = peekNonSpace();
        if (first < 0)
            return truncated(error);
        if (first == '"')
            return string(out, error);
        if (first == '{' || first == '[')
            return nested(out, error);
        // A number or a literal runs up to the next delimiter.
        for (;;) {
            const int c = peek();
            if (c < 0 || c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' ||
                c == '\t')
                return true;
            if (!keep(out, char(next()), error))
                return false;
        }
    }

private:
    bool fill() {
        base_ += pos_;
        buffer_ = file_.read(kChunk);
        pos_ = 0;
        return !buffer_.isEmpty();
    }
    static bool truncated(QString* error) {
        *error = QStringLiteral("the file ends in the middle of a value (truncated?)");
        return false;
    }
    bool keep(QByteArray* out, char c, QString* error) {
        if (!out)
            return true;
        if (out->size() >= kMaxValue) {
            *error = QStringLiteral("a value is larger than %1 MiB").arg(kMaxValue >> 20);
            return false;
        }
        out->append(c);
        return true;
    }
    bool string(QByteArray* out, QString* error) {
        if (!keep(out, char(next()), error))
            return false;
        for (;;) {
            const int c = next();
            if (c < 0)
                return truncated(error);
            if (!keep(out, char(c), error))
                return false;
            if (c == '"')
                return true;
            if (c == '\\') {
                const int escaped = next();
                if (escaped < 0)
                    return truncated(error);
                if (!keep(out, char(escaped), error))
                    return false;
            }
        }
    }
    bool nested(QByteArray* out, QString* error) {
        int depth = 0;
        for (;;) {
            const int c = peek();
            if (c < 0)
                return truncated(error);
            if (c == '"') {
                if (!string(out, error))
                    return false;
                continue;
            }
            if (!keep(out, char(next()), error))
                return false;
            if (c == '{' || c == '[') {
                if (++depth > kMaxDepth) {
                    *error = QStringLiteral("values nested deeper than %1 levels").arg(kMaxDepth);
                    return false;
                }
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return true;
            }
        }
    }

    QIODevice& file_;
    QByteArray buffer_;
    qsizetype pos_ = 0;
    qint64 base_ = 0;
};

QString unexpected(Scanner& s, const char* expected) {
    const int c = s.peekNonSpace();
    return c < 0 ? QStringLiteral("the file ends early, where %1 was expected (truncated?)")
                       .arg(QLatin1String(expected))
                 : QStringLiteral("unexpected \"%1\" at byte %2, where %3 was expected")
                       .arg(QChar(c))
                       .arg(s.offset())
                       .arg(QLatin1String(expected));
}

// A scalar or an object read from its bytes.
QJsonValue parseValue(const QByteArray& raw, QString* error) {
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + raw + "]", &e);
    if (doc.isNull()) {
        *error = QStringLiteral("corrupt JSON: %1").arg(e.errorString());
        return QJsonValue(QJsonValue::Undefined);
    }
    return doc.array().at(0);
}

}  // namespace

TraceReader::TraceReader(QString path) : path_(std::move(path)) {}
TraceReader::TraceReader(QByteArray bytes) : bytes_(std::move(bytes)), inMemory_(true) {}

bool TraceReader::stopRequested(QString* error) {
    if (!cancel_ || !cancel_->load(std::memory_order_relaxed))
        return false;
    cancelled_ = true;
    *error = QStringLiteral("stopped before the end of the trace");
    return true;
}

std::unique_ptr<QIODevice> TraceReader::openDevice(QString* error) const {
    std::unique_ptr<QIODevice> device;
    if (inMemory_)
        device = std::make_unique<QBuffer>(const_cast<QByteArray*>(&bytes_));
    else
        device = std::make_unique<QFile>(path_);
    if (!device->open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open it: %1").arg(device->errorString());
        return nullptr;
    }
    return device;
}

// A read that failed (a disk error) is told as such: not as the truncated
// value the scanner took the missing bytes for.
bool TraceReader::readFailed(const QIODevice& device, QString* error) {
    const auto* file = qobject_cast<const QFileDevice*>(&device);
    if (!file || file->error() == QFileDevice::NoError)
        return false;
    ioError_ = true;
    *error = QStringLiteral("cannot read it: %1").arg(file->errorString());
    return true;
}

bool TraceReader::readHeader(Header* header, QString* error) {
    ioError_ = false;
    const std::unique_ptr<QIODevice> file = openDevice(error);
    if (!file) {
        ioError_ = !inMemory_;
        return false;
    }
    // A disk error ends the scanner's reading as the end of the file would:
    // asked after a success too, for an error past the last value.
    const bool parsed = parseHeader(*file, header, error);
    return !readFailed(*file, error) && parsed;
}

bool TraceReader::parseHeader(QIODevice& device, Header* header, QString* error) {
    Scanner s(device);
    Header h;
    bool hasFormat = false;
    QString format;
    QByteArray summaryRaw;
    QSet<QString> topKeys;
    if (s.peekNonSpace() != '{') {
        *error = QStringLiteral("not a readable trace (corrupt: %1)").arg(unexpected(s, "\"{\""));
        return false;
    }
    s.next();
    for (bool first = true;; first = false) {
        int c = s.peekNonSpace();
        if (c == '}' && first) {
            s.next();
            break;
        }
        if (!first) {
            if (c == '}') {
                s.next();
                break;
            }
            if (c != ',') {
                *error = unexpected(s, "\",\" or \"}\"");
                return false;
            }
            s.next();
        }
        QByteArray keyRaw;
        if (s.peekNonSpace() != '"' || !s.value(&keyRaw, error)) {
            if (error->isEmpty())
                *error = unexpected(s, "a field name");
            return false;
        }
        const QString key = parseValue(keyRaw, error).toString();
        // A key twice: which of the two a reader takes is anybody's guess.
        if (topKeys.contains(key)) {
            *error = QStringLiteral("the trace has the key \"%1\" twice").arg(key);
            return false;
        }
        topKeys.insert(key);
        if (s.peekNonSpace() != ':') {
            *error = unexpected(s, "\":\"");
            return false;
        }
        s.next();
        if (key == QLatin1String("events")) {
            if (s.peekNonSpace() != '[') {
                *error = QStringLiteral("the trace's events are not a list");
                return false;
            }
            eventsOffset_ = s.offset();
            s.next();
            if (s.peekNonSpace() == ']') {
                s.next();
                continue;
            }
            for (;;) {
                if (!s.value(nullptr, error))
                    return false;
                if ((++h.events & 0xff) == 0 && stopRequested(error))
                    return false;
                c = s.peekNonSpace();
                s.next();
                if (c == ']')
                    break;
                if (c != ',') {
                    *error = QStringLiteral("the events list is broken at byte %1 (truncated?)")
                                 .arg(s.offset());
                    return false;
                }
            }
            continue;
        }
        QByteArray raw;
        if (!s.value(&raw, error))
            return false;
        const QJsonValue v = parseValue(raw, error);
        if (v.isUndefined()) {
            *error = QStringLiteral("the trace's \"%1\" is %2").arg(key, *error);
            return false;
        }
        if (const QString twice = json::duplicateKey(raw, key); !twice.isEmpty()) {
            *error = QStringLiteral("the trace has the key \"%1\" twice").arg(twice);
            return false;
        }
        if (key == QLatin1String("format")) {
            hasFormat = true;
            format = v.toString();
        } else if (key == QLatin1String("version")) {
            h.version = v.toVariant().typeId() == QMetaType::LongLong ? v.toInt(-1) : -1;
        } else if (key == QLatin1String("config") && v.isObject()) {
            h.config = v.toObject();
        } else if (key == QLatin1String("summary") && v.isObject()) {
            h.summary = v.toObject();
            h.hasSummary = true;
            summaryRaw = raw;
        } else if (key == QLatin1String("digest")) {
            h.digest = v.toString().toLatin1();
        }
    }
    if (s.peekNonSpace() >= 0) {
        *error =
            QStringLiteral("there is more after the end of the trace (byte %1)").arg(s.offset());
        return false;
    }
    if (!hasFormat || format != QLatin1String(Trace::kFormat)) {
        *error = QStringLiteral("not an idemlab trace (format is not \"%1\")").arg(Trace::kFormat);
        return false;
    }
    if (h.version > Trace::kVersion) {
        *error = QStringLiteral(
                     "trace format version %1 is newer than this program reads (%2); "
                     "update Idempotency Lab to open it")
                     .arg(h.version)
                     .arg(Trace::kVersion);
        return false;
    }
    if (h.version < 1) {
        *error = QStringLiteral("trace has no valid format version");
        return false;
    }
    if (h.config.isEmpty() || eventsOffset_ < 0) {
        *error = QStringLiteral("trace lacks its config or its events");
        return false;
    }
    summaryRaw_ = summaryRaw;
    header_ = h;
    *header = h;
    return true;
}

bool TraceReader::readEvents(const EventHandler& onEvent, bool* digestMatches, QString* error) {
    ioError_ = false;
    if (eventsOffset_ < 0) {
        *error = QStringLiteral("the trace's header was not read");
        return false;
    }
    const std::unique_ptr<QIODevice> file = openDevice(error);
    if (!file) {
        ioError_ = !inMemory_;
        return false;
    }
    const bool parsed = parseEvents(*file, onEvent, digestMatches, error);
    return !readFailed(*file, error) && parsed;
}

bool TraceReader::parseEvents(QIODevice& device, const EventHandler& onEvent, bool* digestMatches,
                              QString* error) {
    Scanner s(device);
    s.seek(eventsOffset_);
    s.next();  // '['
    Sha256 digest;
    for (qint64 n = 0; n < header_.events; ++n) {
        if ((n & 0xff) == 0 && stopRequested(error))
            return false;
        if (n > 0 && s.peekNonSpace() == ',')
            s.next();
        QByteArray raw;
        if (!s.value(&raw, error))
            return false;
        digest.addData(raw);
        digest.addData("\n");
        if (const QString twice = json::duplicateKey(raw); !twice.isEmpty()) {
            *error = QStringLiteral("event %1 has the key \"%2\" twice").arg(n + 1).arg(twice);
            return false;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(raw, &parseError);
        if (!doc.isObject()) {
            *error = QStringLiteral("event %1 is not a JSON object (%2)")
                         .arg(n + 1)
                         .arg(doc.isNull() ? parseError.errorString() : QStringLiteral("a list?"));
            return false;
        }
        const QJsonObject json = doc.object();
        TraceEvent e;
        if (!TraceEvent::fromJson(json, header_.version, &e, error)) {
            *error = QStringLiteral("event %1: %2").arg(n + 1).arg(*error);
            return false;
        }
        if (!onEvent(std::move(e), json))
            return false;
    }
    digest.addData(summaryRaw_);
    if (digestMatches) {
        *digestMatches =
            !header_.digest.isEmpty() && header_.digest == "sha256:" + digest.result().toHex();
    }
    return true;
}

namespace {

bool loadAll(TraceReader& reader, const QString& path, Trace::Loaded* out, QString* error) {
    TraceReader::Header header;
    Trace::Loaded loaded;
    auto fail = [&](const QString& why) {
        *error = path.isEmpty() ? why : QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    if (!reader.readHeader(&header, error))
        return fail(*error);
    loaded.version = header.version;
    loaded.config = header.config;
    loaded.summary = header.summary;
    loaded.events.reserve(header.events);
    const bool ok = reader.readEvents(
        [&loaded](TraceEvent&& e, const QJsonObject&) {
            loaded.events.append(std::move(e));
            return true;
        },
        &loaded.digestMatches, error);
    if (!ok)
        return fail(*error);
    *out = std::move(loaded);
    return true;
}

}  // namespace

bool Trace::load(const QString& path, Loaded* out, QString* error) {
    TraceReader reader(path);
    return loadAll(reader, path, out, error);
}

bool Trace::parse(const QByteArray& bytes, Loaded* out, QString* error) {
    TraceReader reader(bytes);
    return loadAll(reader, QString(), out, error);
}

}  // namespace idem
