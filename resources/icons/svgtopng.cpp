// Renders the scalable icon into one PNG size of the hicolor theme at build
// time, so that the repository keeps only the SVG. Qt's own SVG renderer
// draws it, as the window's icon is drawn.
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextStream>

int main(int argc, char* argv[]) {
    if (argc != 4) {
        QTextStream(stderr) << "usage: svgtopng ICON.svg OUT.png SIZE" << Qt::endl;
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const int size = QByteArray(argv[3]).toInt();
    QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
    if (!svg.isValid() || size < 8 || size > 1024) {
        QTextStream(stderr) << "svgtopng: cannot render " << argv[1] << " at " << argv[3]
                            << Qt::endl;
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter);
    painter.end();
    if (!image.save(QString::fromLocal8Bit(argv[2]), "PNG")) {
        QTextStream(stderr) << "svgtopng: cannot write " << argv[2] << Qt::endl;
        return 1;
    }
    return 0;
}
