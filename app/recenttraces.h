// File → Open recent: the traces opened last, newest first, remembered
// across starts. A trace that is no longer where it was stays in the list,
// greyed out, until it is back or the list is cleared.
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;
class QWidget;

namespace idem {

class RecentTraces : public QObject {
    Q_OBJECT
public:
    static constexpr int kMost = 8;

    // remember: the list lives in QSettings (settings::kRecentTraces);
    // false: for this window only (tests, `idemlab shot`).
    RecentTraces(bool remember, QWidget* parent);

    // The submenu; its entries are made again each time it opens, so that a
    // file deleted meanwhile shows greyed out.
    QMenu* menu() const { return menu_; }
    // Absolute paths, newest first.
    QStringList paths() const;
    // A trace was opened: it goes first.
    void add(const QString& path);
    void clear();
    void retranslate();

signals:
    void openRequested(const QString& path);

private:
    void rebuild();
    void store(const QStringList& paths);

    bool remember_;
    QStringList paths_;  // when not remembered
    QMenu* menu_;
};

}  // namespace idem
