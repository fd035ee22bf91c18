#include "scenariopicker.h"

#include "registry.h"
#include "texts.h"

#include <QEvent>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace idem {

namespace {
constexpr int kIdRole = Qt::UserRole;
}

ScenarioPicker::ScenarioPicker(QWidget* parent) : QWidget(parent), tree_(new QTreeWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tree_);
    tree_->setColumnCount(3);
    tree_->setRootIsDecorated(false);
    tree_->setUniformRowHeights(false);
    tree_->setWordWrap(true);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setStretchLastSection(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(1, QHeaderView::Interactive);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && !item->data(0, kIdRole).toString().isEmpty()) {
            emit scenarioSelected(item->data(0, kIdRole).toString());
        }
    });
    rebuild();
}

void ScenarioPicker::rebuild() {
    const QString current = currentScenario();
    const QSignalBlocker block(tree_);
    tree_->clear();
    tree_->setHeaderLabels({tr("Scenario 场景"), tr("Recommended technique 推荐幂等手段"),
                            tr("Why 原因")});
    const QList<QPair<QString, QString>> groups{
        {"recommended", tr("How to choose, by scenario (常见场景怎么选)")},
        {"natural", tr("Naturally idempotent operations (天然幂等)")},
        {"read", tr("Read idempotency (读幂等)")},
        {"misconception", tr("Common misconceptions (常见误区)")},
    };
    for (const auto& [group, title] : groups) {
        auto* header = new QTreeWidgetItem(tree_, {title});
        header->setFirstColumnSpanned(true);
        header->setFlags(Qt::ItemIsEnabled);
        QFont f = header->font(0);
        f.setBold(true);
        header->setFont(0, f);
        header->setExpanded(true);
        for (const Scenario* s : allScenarios()) {
            const ScenarioInfo& info = s->info();
            if (info.group != group) continue;
            const Texts& t = Texts::instance();
            QString title = t.get(info.id, "title");
            if (title.isEmpty()) title = info.title;
            auto* item = new QTreeWidgetItem(
                header, {title, t.get(info.id, "technique"), t.get(info.id, "reason")});
            item->setData(0, kIdRole, info.id);
            item->setToolTip(0, info.id);
            item->setToolTip(1, t.get(info.id, "technique"));
            item->setToolTip(2, t.get(info.id, "reason"));
        }
    }
    tree_->expandAll();
    if (!current.isEmpty()) selectScenario(current);
}

QString ScenarioPicker::currentScenario() const {
    const QTreeWidgetItem* item = tree_->currentItem();
    return item ? item->data(0, kIdRole).toString() : QString();
}

void ScenarioPicker::selectScenario(const QString& id) {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
        if ((*it)->data(0, kIdRole).toString() == id) {
            tree_->setCurrentItem(*it);
            return;
        }
    }
}

void ScenarioPicker::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) rebuild();
    QWidget::changeEvent(event);
}

}  // namespace idem
