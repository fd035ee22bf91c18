// What the window writes besides a saved trace: File → Export HTML report,
// lesson hand-out and sequence diagram as Mermaid or PlantUML. Each is written
// by the function `idemlab export` or `idemlab lesson export` writes it with,
// in the window's language, after a save dialog that asks before replacing a
// file; the trace or lesson file the window opened is never written over.
#pragma once

#include <QObject>
#include <QStringList>

class QStatusBar;
class QWidget;

namespace idem {

class LessonPlayer;
class Playback;
class StageDirector;

class WindowExports : public QObject {
    Q_OBJECT
public:
    enum class Format { Report, Spreadsheet, Mermaid, PlantUml };
    struct Parts {
        QWidget* window;
        StageDirector* director;
        Playback* playback;
        LessonPlayer* lessons;
        QStatusBar* status;
    };
    WindowExports(const Parts& parts, QObject* parent);

    // Asks where, then writes the whole run (played to its end first) or the
    // lesson on screen.
    void exportRun(Format format);
    void exportHandout();
    // The same to a path chosen already (tests); the run's in the background.
    void writeRun(Format format, const QString& path);
    bool writeHandout(const QString& path, QString* error);

    // A file the window read (a trace, a lesson): nothing it writes goes there.
    void protect(const QString& path);
    // True, and says why, when `path` is a file the window opened.
    bool refused(const QString& path);
    // A save dialog that asks before replacing a file; empty when cancelled
    // or when the choice is a file the window read (then it says why).
    QString askSavePath(const QString& title, const QString& suggestedName, const QString& filter);
    // "order-create-none" for the run on screen: the start of each suggested name.
    QString runFileStem() const;
    // The window's language: "zh" or "en".
    void setLanguage(const QString& lang) { lang_ = lang; }

signals:
    // A file was written whole (its path), or could not be.
    void written(const QString& path);
    void errorRaised(const QString& title, const QString& message);

private:
    bool isProtected(const QString& path) const;

    Parts parts_;
    QStringList protected_;  // resolved paths
    QString lang_ = QStringLiteral("en");
};

}  // namespace idem
