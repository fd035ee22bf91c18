#include "registry.h"

#include "bolton.h"
#include "downstream.h"
#include "duplicatealert.h"
#include "mqconsume.h"
#include "naturalops.h"
#include "ordercreate.h"
#include "outbox.h"
#include "pagination.h"
#include "paymentcallback.h"
#include "scheduledtask.h"
#include "stockdeduct.h"
#include "tcc.h"
#include "ttlwindow.h"

namespace idem {

const QList<const Scenario*>& allScenarios() {
    static const OrderCreate orderCreate;
    static const PaymentCallback paymentCallback;
    static const MqConsume mqConsume;
    static const StockDeduct stockDeduct;
    static const ScheduledTask scheduledTask;
    static const NaturalOps naturalOps;
    static const Pagination pagination;
    static const Downstream downstream;
    static const TtlWindow ttlWindow;
    static const DuplicateAlert duplicateAlert;
    static const Outbox outbox;
    static const Tcc tcc;
    static const BoltOn boltOn;
    static const QList<const Scenario*> all{
        &orderCreate,    &paymentCallback, &mqConsume,  &stockDeduct, &scheduledTask,
        &naturalOps,     &pagination,      &downstream, &boltOn,      &ttlWindow,
        &duplicateAlert, &outbox,          &tcc};
    return all;
}

namespace {
QList<ScenarioFinder>& finders() {
    static QList<ScenarioFinder> all;
    return all;
}
}  // namespace

void addScenarioFinder(ScenarioFinder finder) {
    if (!finders().contains(finder))
        finders().append(finder);
}

const Scenario* findScenario(const QString& id) {
    for (const Scenario* s : allScenarios()) {
        if (s->info().id == id)
            return s;
    }
    for (ScenarioFinder find : finders()) {
        if (const Scenario* s = find(id))
            return s;
    }
    return nullptr;
}

RunConfig defaultConfig(const Scenario& scenario) {
    const ScenarioInfo& info = scenario.info();
    RunConfig c;
    c.scenario = info.id;
    c.variant = info.recommendedVariant();
    c.source = info.sources.isEmpty() ? Source::DoubleClick : info.sources.first();
    c.timing = info.defaultTiming;
    c.duplicates = info.defaultDuplicates;
    return c;
}

}  // namespace idem
