// A ZIP archive (PKWARE's APPNOTE, no ZIP64) written front to back through
// an ExportOutput, so that an entry of any length is compressed as it
// streams and nothing of it is held: what an .xlsx workbook is made of.
// Every entry is dated 1980-01-01 00:00, the format's first day, so that the
// same content gives the same bytes.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>

namespace idem {

class ExportOutput;

class ZipWriter {
public:
    ZipWriter();
    ~ZipWriter();
    ZipWriter(const ZipWriter&) = delete;
    ZipWriter& operator=(const ZipWriter&) = delete;

    // A whole entry; stored as it is when `compress` is false (so that its
    // text can be recognised from the archive's first bytes).
    void add(ExportOutput& out, const QByteArray& name, const QByteArray& bytes,
             bool compress = true);
    // An entry written in parts: open, write as often as needed, close.
    void open(ExportOutput& out, const QByteArray& name);
    void write(ExportOutput& out, const QByteArray& bytes);
    void close(ExportOutput& out);
    // The directory at the end. False with *error when the archive grew past
    // what a ZIP without its 64-bit extension can say (4 GiB).
    bool finish(ExportOutput& out, QString* error);

private:
    struct Entry {
        QByteArray name;
        quint16 flags = 0;
        quint16 method = 0;
        quint32 crc = 0;
        quint64 packed = 0;
        quint64 size = 0;
        quint64 offset = 0;
    };
    struct Deflater;

    void send(ExportOutput& out, const QByteArray& bytes);
    void writeLocalHeader(ExportOutput& out, const Entry& e);

    QList<Entry> entries_;
    std::unique_ptr<Deflater> deflater_;  // the open entry's
    quint64 written_ = 0;
};

}  // namespace idem
