// The explanation of the selected scenario and variant, in the current
// language: the business, where duplicates come from, what the variant does,
// what the chosen crash point means, and what to watch.
#pragma once

#include "runconfig.h"

#include <QTextBrowser>

namespace idem {

class ExplanationView : public QTextBrowser {
    Q_OBJECT
public:
    explicit ExplanationView(QWidget* parent = nullptr);
    void showFor(const RunConfig& config);
    // While held, the text is not laid out: a window holds its first one
    // until it has painted once, so that it appears sooner, then releases
    // it (laid out at once if it is due).
    void setHeld(bool held);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    // Lays the text out for the widget's width; a hidden or held view waits
    // until it is shown (at the width it is shown at) and released.
    void render();
    RunConfig config_;
    bool stale_ = false;
    bool held_ = false;
    // The title's pixel size at the widget's width, and the one it was drawn at.
    int titlePixels() const;
    int headingPx_ = -1;
    QString shownHtml_;  // what setHtml was last given
};

}  // namespace idem
