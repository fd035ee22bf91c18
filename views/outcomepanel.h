// The outcome panel: intents, attempts, effects against what was expected,
// responses by kind, the verdict in colour, and alerts as a red banner.
#pragma once

#include "summary.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace idem {

class OutcomePanel : public QWidget {
    Q_OBJECT
public:
    explicit OutcomePanel(QWidget* parent = nullptr);
    // final: the run has ended (the verdict is the judge's last word).
    void showSummary(const Summary& summary, bool final);
    void clear();
    QString verdictText() const;
    QString verdictId() const { return summary_ ? toId(summary_->verdict) : QString(); }
    bool alertVisible() const;
    // Off in presenter mode, where the stage's banner shows the verdict.
    void setVerdictVisible(bool visible);

signals:
    // The verdict line as shown (also when hidden): for the stage's banner.
    void verdictShown(const QString& text, const QColor& background, const QColor& foreground);

protected:
    void changeEvent(QEvent* event) override;

private:
    void render();

    std::optional<Summary> summary_;
    bool final_ = false;
    QLabel* alert_;
    QLabel* verdict_;
    QLabel* details_;
};

}  // namespace idem
