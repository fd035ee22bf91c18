#include "zipwriter.h"

#include "traceexport.h"

#include <QCoreApplication>

#include <zlib.h>

#include <limits>
#include <new>

namespace idem {

namespace {

constexpr quint16 kVersion = 20;         // 2.0: deflate
constexpr quint16 kDescriptor = 0x0008;  // sizes and CRC after the data
constexpr quint16 kStored = 0;
constexpr quint16 kDeflated = 8;
constexpr quint16 kDate = (0 << 9) | (1 << 5) | 1;  // 1980-01-01
constexpr quint16 kTime = 0;
constexpr qsizetype kChunk = 64 * 1024;

void put16(QByteArray& b, quint16 v) {
    b.append(char(v & 0xff));
    b.append(char(v >> 8));
}

void put32(QByteArray& b, quint64 v) {
    for (int i = 0; i < 4; ++i) b.append(char((v >> (8 * i)) & 0xff));
}

quint32 crcOf(quint32 crc, const QByteArray& bytes) {
    return quint32(
        ::crc32(uLong(crc), reinterpret_cast<const Bytef*>(bytes.constData()), uInt(bytes.size())));
}

}  // namespace

// zlib's raw deflate (no zlib header: ZIP's own framing), fed in chunks.
struct ZipWriter::Deflater {
    z_stream stream{};
    Entry entry;
    Deflater() {
        if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
            Z_OK)
            throw std::bad_alloc();
    }
    ~Deflater() { deflateEnd(&stream); }
    // Compresses `bytes` (all of them; flush: and ends the stream) into `packed`.
    void feed(const QByteArray& bytes, int flush, QByteArray& packed) {
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.constData()));
        stream.avail_in = uInt(bytes.size());
        char buffer[kChunk];
        int status = Z_OK;
        do {
            stream.next_out = reinterpret_cast<Bytef*>(buffer);
            stream.avail_out = uInt(sizeof buffer);
            status = deflate(&stream, flush);
            packed.append(buffer, qsizetype(sizeof buffer - stream.avail_out));
        } while (stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
    }
};

ZipWriter::ZipWriter() = default;
ZipWriter::~ZipWriter() = default;

void ZipWriter::send(ExportOutput& out, const QByteArray& bytes) {
    out.write(bytes);
    written_ += quint64(bytes.size());
}

void ZipWriter::writeLocalHeader(ExportOutput& out, const Entry& e) {
    QByteArray h;
    put32(h, 0x04034b50);
    put16(h, kVersion);
    put16(h, e.flags);
    put16(h, e.method);
    put16(h, kTime);
    put16(h, kDate);
    put32(h, e.crc);
    put32(h, e.packed);
    put32(h, e.size);
    put16(h, quint16(e.name.size()));
    put16(h, 0);
    h += e.name;
    send(out, h);
}

void ZipWriter::add(ExportOutput& out, const QByteArray& name, const QByteArray& bytes,
                    bool compress) {
    Entry e;
    e.name = name;
    e.offset = written_;
    e.crc = crcOf(0, bytes);
    e.size = quint64(bytes.size());
    QByteArray data = bytes;
    if (compress) {
        Deflater d;
        data.clear();
        d.feed(bytes, Z_FINISH, data);
        e.method = kDeflated;
    }
    e.packed = quint64(data.size());
    writeLocalHeader(out, e);
    send(out, data);
    entries_.append(e);
}

void ZipWriter::open(ExportOutput& out, const QByteArray& name) {
    deflater_ = std::make_unique<Deflater>();
    Entry& e = deflater_->entry;
    e.name = name;
    e.flags = kDescriptor;
    e.method = kDeflated;
    e.offset = written_;
    writeLocalHeader(out, e);
}

void ZipWriter::write(ExportOutput& out, const QByteArray& bytes) {
    Entry& e = deflater_->entry;
    e.crc = crcOf(e.crc, bytes);
    e.size += quint64(bytes.size());
    QByteArray packed;
    deflater_->feed(bytes, Z_NO_FLUSH, packed);
    e.packed += quint64(packed.size());
    if (!packed.isEmpty())
        send(out, packed);
}

void ZipWriter::close(ExportOutput& out) {
    Entry& e = deflater_->entry;
    QByteArray packed;
    deflater_->feed({}, Z_FINISH, packed);
    e.packed += quint64(packed.size());
    send(out, packed);
    QByteArray d;
    put32(d, 0x08074b50);
    put32(d, e.crc);
    put32(d, e.packed);
    put32(d, e.size);
    send(out, d);
    entries_.append(e);
    deflater_.reset();
}

bool ZipWriter::finish(ExportOutput& out, QString* error) {
    constexpr quint64 most = std::numeric_limits<quint32>::max();
    const quint64 start = written_;
    QByteArray dir;
    for (const Entry& e : entries_) {
        if (e.size > most || e.packed > most || e.offset > most) {
            *error = QCoreApplication::translate(
                "idem::ZipWriter", "the workbook would be larger than 4 GiB: export it as CSV");
            return false;
        }
        put32(dir, 0x02014b50);
        put16(dir, kVersion);
        put16(dir, kVersion);
        put16(dir, e.flags);
        put16(dir, e.method);
        put16(dir, kTime);
        put16(dir, kDate);
        put32(dir, e.crc);
        put32(dir, e.packed);
        put32(dir, e.size);
        put16(dir, quint16(e.name.size()));
        put16(dir, 0);  // extra field
        put16(dir, 0);  // comment
        put16(dir, 0);  // disk
        put16(dir, 0);  // internal attributes
        put32(dir, 0);  // external attributes
        put32(dir, e.offset);
        dir += e.name;
    }
    if (start > most || entries_.size() > 0xffff) {
        *error = QCoreApplication::translate(
            "idem::ZipWriter", "the workbook would be larger than 4 GiB: export it as CSV");
        return false;
    }
    QByteArray end;
    put32(end, 0x06054b50);
    put16(end, 0);
    put16(end, 0);
    put16(end, quint16(entries_.size()));
    put16(end, quint16(entries_.size()));
    put32(end, quint64(dir.size()));
    put32(end, start);
    put16(end, 0);
    send(out, dir);
    send(out, end);
    return true;
}

}  // namespace idem
