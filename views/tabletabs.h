// The tables' tab bar on the Live page: the tab in front whole, the others
// shortened only as far as a name stays readable from the back of a room,
// and the guard table's shield for presenter mode.
#pragma once

#include <QIcon>
#include <QTabBar>
#include <QTabWidget>

namespace idem {

// The guard table's mark on its tab in presenter mode, where "(guard)" would
// not fit beside the other tabs: a small shield in the highlight colour.
QIcon guardIcon(const QPalette& palette, int size);

// Table tabs that, when they do not all fit, shorten the others and keep the
// one in front whole (its table is the one on show; every tab's tooltip has
// the whole name). Shortened, a name keeps enough of itself to be read from
// the back of a room ("pay_flow", "stale_no…"), not one letter and "…".
class TableTabBar : public QTabBar {
public:
    using QTabBar::QTabBar;
    // A shortened name keeps at most this many letters, at least Qt's three.
    static constexpr int kMostLetters = 8;
    static constexpr int kFewestLetters = 3;
    // ... and no fewer than this many where the stage shortens them: "o…"
    // names nothing a class can read ("pay_fl…", "stale_…" do).
    static constexpr int kReadableLetters = 6;

    // How many letters a shortened name keeps.
    void setLeastLetters(int letters);
    // The width the visible tabs take at their shortest, each shortened
    // name keeping `letters` letters.
    int leastWidth(int letters) const;

protected:
    QSize minimumTabSizeHint(int index) const override;

private:
    QSize shortest(int index, int letters) const;
    int letters_ = kFewestLetters;
};

class TableTabs : public QTabWidget {
public:
    explicit TableTabs(QWidget* parent);
};

}  // namespace idem
