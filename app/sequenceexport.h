// The window's sequence diagram as text that other tools draw: a Mermaid
// sequenceDiagram (Markdown, slides, course notes) and PlantUML. Same lanes,
// labels and words as the window, in the language installed for tr().
#pragma once

#include "lockstory.h"
#include "sequencesteps.h"
#include "traceexport.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>

namespace idem {

struct ScenarioInfo;

// The diagram written as the trace is read: the events go by once to learn
// the lanes, then once more to be written. scenario: the trace's scenario,
// whose declarations order the lanes and pick the payload shown on an
// attempt's arrow (nullptr when this program does not know it: lanes in the
// order they appear, no payload). title: shown above the diagram
// ("order-create / check-then-insert"). On a server, a lock wait is a note
// on the waiting attempt's lane naming the attempts holding the lock and the
// lock; another note says whose transaction ended to let it go, just before
// the statement's result, and one names the victim of a deadlock (or the
// attempt whose statement a serialization failure refused).
class SequenceDiagramExport : public TraceExport {
public:
    enum class Language { Mermaid, PlantUml };
    struct Syntax;
    // PlantUML draws no image taller than 4,096 px and cuts the rest off: a
    // long diagram goes on a new page (`newpage`, the lanes named again)
    // after this many rows, about 3,000 px with notes of two lines.
    static constexpr int kPlantUmlRowsPerPage = 80;
    SequenceDiagramExport(Language language, const ScenarioInfo* scenario, QString title);
    ~SequenceDiagramExport() override;
    bool twoPasses() const override { return true; }
    void look(const TraceEvent& e) override;
    void begin(const ExportRun& run, ExportOutput& out) override;
    void add(const TraceEvent& e, ExportOutput& out) override;
    void end(ExportOutput& out) override;

private:
    void see(const QList<SequenceStep>& steps);
    QString lane(const QString& name) const;
    void write(const QList<SequenceStep>& steps, ExportOutput& out);

    const Syntax* syntax_;
    bool mermaid_;
    QString title_;
    QStringList order_;
    const ScenarioInfo* scenario_;
    SequenceSteps::Stream looking_;
    std::unique_ptr<SequenceSteps::Stream> writing_;
    bool manyIntents_ = false;
    QSet<QString> used_;
    QStringList firstSeen_;
    QStringList lanes_;
    QHash<QString, QString> alias_;
    int rowsOnPage_ = 0;
    int page_ = 1;
    // A server's lock waits: said when they begin, end and when the server
    // refuses a statement, on the lane of the attempt concerned.
    LockStory locks_{0};
};

}  // namespace idem
