// Who waits for whom at this step, drawn: each attempt in a lock wait a box
// (a waiter's marked), an arrow from a waiter to each attempt holding what it
// waits for; the locks are in the tooltip. A cycle is a deadlock, drawn in
// the refusal colour.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

namespace idem {

class WaitForGraph : public QWidget {
    Q_OBJECT
public:
    struct Edge {
        QString waiter;  // "#2"
        QString holder;  // "#1"
        QString lock;    // "insert intention"
    };
    explicit WaitForGraph(QWidget* parent = nullptr);

    void setEdges(const QList<Edge>& edges);
    const QList<Edge>& edges() const { return edges_; }
    QStringList nodes() const { return nodes_; }
    // The waits close a cycle: a deadlock the server is about to break.
    bool hasCycle() const { return cycle_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QList<Edge> edges_;
    QStringList nodes_;
    bool cycle_ = false;
};

}  // namespace idem
