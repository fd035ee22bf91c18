#include "stepcaption.h"

#include "labelholder.h"
#include "relativefont.h"
#include "scenario.h"
#include "sequencesteps.h"
#include "traceevent.h"

#include <QHBoxLayout>
#include <QLabel>

namespace idem {

namespace {
// A step of many events (a jump, the set-up) is named by its first few.
constexpr int kStepsNamed = 3;
}  // namespace

StepCaption::StepCaption(QWidget* parent)
    : QWidget(parent),
      caption_(new QLabel(this)),
      captionRoom_(new LabelHolder(caption_, this)),
      hint_(new QLabel(this)) {
    setObjectName(QStringLiteral("stepCaption"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hint_->setTextFormat(Qt::PlainText);
    hint_->setForegroundRole(QPalette::PlaceholderText);
    hint_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setRelativeFont(caption_, 1.0, true);
    // A new caption at every step, of one line or three: held at the height
    // of the tallest so far, so that the stage under it stays where it is
    // (and is not laid out again) while a run is stepped through.
    captionRoom_->setKeepsTallest(true);
    layout->addWidget(captionRoom_, 1);
    layout->addWidget(hint_);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
}

void StepCaption::setCaption(const QString& caption, const QString& hint) {
    caption_->setText(caption);
    hint_->setText(hint);
    hint_->setVisible(!hint.isEmpty());
    setAccessibleDescription(caption);
}

QString StepCaption::caption() const {
    return caption_->text();
}

QString StepCaption::hint() const {
    return hint_->text();
}

QString StepCaption::describe(const QList<TraceEvent>& events, qsizetype from, qsizetype to,
                              const ScenarioInfo* scenario) {
    // A step that recorded nothing (time passed): say what happened last.
    if (from >= to && to > 0) {
        from = to - 1;
        // ... a story's event, not the locks or rows it left (the Locks
        // and table views').
        while (from > 0 && events.value(from).isSnapshot()) --from;
    }
    const QList<SequenceStep> steps = SequenceSteps::build(events, from, to, from, scenario);
    QStringList parts;
    for (const SequenceStep& s : steps) {
        if (parts.size() == kStepsNamed) {
            parts << SequenceSteps::tr("… and %1 more").arg(steps.size() - kStepsNamed);
            break;
        }
        parts << s.label;
    }
    return parts.join(QStringLiteral(" · "));
}

void StepCaption::startOver() {
    captionRoom_->forgetTallest();
}

}  // namespace idem
