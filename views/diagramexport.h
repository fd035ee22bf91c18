// Saves a diagram's scene as a picture for slides and reports: PNG at twice
// the screen resolution, or SVG. Written through an OutputFile, so a failed save
// leaves no half-written file behind.
#pragma once

#include <QByteArray>
#include <QString>

class QGraphicsScene;

namespace idem {

// Each returns false and sets *error (when given) to a message a student
// understands: an empty diagram, a folder that does not exist, no permission.
bool exportScenePng(QGraphicsScene* scene, const QString& path, QString* error);
bool exportSceneSvg(QGraphicsScene* scene, const QString& path, const QString& title,
                    QString* error);
// The SVG document in memory; empty (with *error) when the diagram is empty.
QByteArray sceneToSvg(QGraphicsScene* scene, const QString& title, QString* error);

}  // namespace idem
