#include "registry.h"

#include "ordercreate.h"
#include "paymentcallback.h"

namespace idem {

const QList<const Scenario*>& allScenarios() {
    static const OrderCreate orderCreate;
    static const PaymentCallback paymentCallback;
    static const QList<const Scenario*> all{&orderCreate, &paymentCallback};
    return all;
}

const Scenario* findScenario(const QString& id) {
    for (const Scenario* s : allScenarios()) {
        if (s->info().id == id) return s;
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
