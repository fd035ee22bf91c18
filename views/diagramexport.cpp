#include "diagramexport.h"

#include "outputfile.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace idem {

namespace {

constexpr double kMargin = 16;
constexpr int kPngScale = 2;  // sharp on slides and high-resolution screens

// The messages' translation context.
class DiagramExport {
    Q_DECLARE_TR_FUNCTIONS(idem::DiagramExport)
};

void fail(QString* error, const QString& message) {
    if (error)
        *error = message;
}

// The part of the scene worth saving: everything drawn, with a margin.
QRectF sourceRect(QGraphicsScene* scene) {
    if (!scene || scene->items().isEmpty())
        return {};
    return scene->itemsBoundingRect().adjusted(-kMargin, -kMargin, kMargin, kMargin);
}

// The diagram's own background, so a dark-theme picture stays readable.
QColor backgroundOf(QGraphicsScene* scene) {
    const QBrush b = scene->backgroundBrush();
    return b.style() == Qt::NoBrush ? QColor(Qt::white) : b.color();
}

bool writeAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    const QFileInfo info(path);
    if (info.isDir()) {
        fail(error,
             DiagramExport::tr("Cannot save the picture: %1 is a folder. Choose a file name.")
                 .arg(path));
        return false;
    }
    if (!info.absoluteDir().exists()) {
        fail(error, DiagramExport::tr("Cannot save the picture: the folder %1 does not exist.")
                        .arg(info.absolutePath()));
        return false;
    }
    // Complete or not at all: commit() flushes and checks the last bytes too.
    OutputFile file(path);
    QString why;
    if (!file.open(&why)) {
        fail(error, DiagramExport::tr(
                        "Cannot save the picture to %1: %2. Choose a folder you can write to.")
                        .arg(path, why));
        return false;
    }
    if (file.device().write(bytes) != bytes.size()) {
        why = file.device().errorString();
        file.cancel();
    } else if (file.commit(&why)) {
        return true;
    }
    fail(error, DiagramExport::tr("Saving the picture to %1 failed: %2. Nothing was written.")
                    .arg(path, why));
    return false;
}

}  // namespace

bool exportScenePng(QGraphicsScene* scene, const QString& path, QString* error) {
    const QRectF source = sourceRect(scene);
    if (source.isEmpty()) {
        fail(error, DiagramExport::tr("There is nothing to save yet: the diagram is empty."));
        return false;
    }
    QImage image(source.size().toSize() * kPngScale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(kPngScale);
    image.fill(backgroundOf(scene));
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        fail(error, DiagramExport::tr("The picture could not be encoded as PNG."));
        return false;
    }
    return writeAtomically(path, bytes, error);
}

QByteArray sceneToSvg(QGraphicsScene* scene, const QString& title, QString* error) {
    const QRectF source = sourceRect(scene);
    if (source.isEmpty()) {
        fail(error, DiagramExport::tr("There is nothing to save yet: the diagram is empty."));
        return {};
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    // The scene's coordinates are the screen's pixels (96 per inch): at the
    // generator's default 72 the text is written a quarter too small for the
    // places its words were laid out at, and runs of words drift apart.
    svg.setResolution(96);
    svg.setTitle(title);
    svg.setDescription(DiagramExport::tr("Exported from Idempotency Lab"));
    {
        QPainter painter;
        if (!painter.begin(&svg)) {
            fail(error, DiagramExport::tr("The picture could not be drawn as SVG."));
            return {};
        }
        painter.fillRect(QRectF(QPointF(0, 0), source.size()), backgroundOf(scene));
        scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    }
    return bytes;
}

bool exportSceneSvg(QGraphicsScene* scene, const QString& path, const QString& title,
                    QString* error) {
    const QByteArray bytes = sceneToSvg(scene, title, error);
    if (bytes.isEmpty())
        return false;
    return writeAtomically(path, bytes, error);
}

}  // namespace idem
