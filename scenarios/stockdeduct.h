// 库存扣减 — take an order's units from stock exactly once: a conditional
// update guarded by the order's status (or a unique deduction log), a
// version the request carries from the page, against a version the service
// reads itself (which only stops simultaneous writes), and no guard at all.
#pragma once

#include "scenario.h"

namespace idem {

class StockDeduct : public Scenario {
public:
    StockDeduct();
    const ScenarioInfo& info() const override { return info_; }
    void seed(Setup& setup, int intent) const override;
    void plan(Planner& planner, int intent) const override;
    Effects effects(Reader& db, int intent) const override;
    // A caller told "rejected" while the stock was taken, or "deducted"
    // while it was not, was told something false.
    std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const override;
    Effects expectedEffects(const RunConfig& config, int intent) const override;
    // A lost update (the row's writes and the units gone disagree), an order
    // marked DEDUCTED with nothing taken, a log that disagrees with the stock.
    Phrase inconsistency(Reader& db, int intent) const override;

    // What every sku holds before the first attempt, and its first version.
    static constexpr qint64 kInitialStock = 10;
    static constexpr qint64 kInitialVersion = 1;
    static QString skuOf(int intent);
    static QString orderOf(int intent);
    // With --param other-order=1: another customer's order for the same
    // sku, deducted after this order's page was shown.
    static QString otherOrderOf(int intent);

private:
    Task<Reply> plainDeduct(Attempt& a) const;
    Task<Reply> versionChecked(Attempt& a) const;
    Task<Reply> versionFromRequest(Attempt& a) const;
    Task<Reply> statusGuarded(Attempt& a) const;
    Task<Reply> deductionLog(Attempt& a) const;
    Task<bool> takeStock(Attempt& a) const;
    Task<Reply> deducted(Attempt& a) const;
    // The units taken for this intent's order: what the stock lost since
    // the start, less what the other order took (--param other-order).
    qint64 unitsTaken(Reader& db, int intent) const;

    ScenarioInfo info_;
};

}  // namespace idem
