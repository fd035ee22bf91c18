// A challenge run as a scenario of the lab: the tables, seed rows, plan and
// judge of the scenario it is built on, and as its one variant the
// student's handler, stepped statement by statement from the JavaScript
// engine. The scheduler runs it like any scenario, so that its runs are
// traced, replayed and narrated like every other.
#pragma once

#include "challenge.h"
#include "handlerprogram.h"
#include "scenario.h"

namespace idem {

class ChallengeScenario : public Scenario {
public:
    ChallengeScenario(const Challenge& challenge, const Scenario& base);
    const ScenarioInfo& info() const override { return info_; }
    const Challenge& challenge() const { return challenge_; }
    const Scenario& base() const { return base_; }

    // The base's tables, then the handler's own `schema`.
    QStringList schema(const RunConfig& config) const override;
    void seed(Setup& setup, int intent) const override;
    void plan(Planner& planner, int intent) const override;
    Task<Reply> handle(Attempt& attempt) const override;

    Effects effects(Reader& db, int intent) const override;
    Effects expectedEffects(const RunConfig& config, int intent) const override;
    Phrase inconsistency(Reader& db, int intent) const override;
    std::vector<Effects> effectsOfAll(Reader& db, int intents) const override;
    std::vector<Phrase> inconsistenciesOfAll(Reader& db, int intents) const override;
    std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const override;
    Verdict judge(const IntentJudgement& j) const override;
    void completeAlerts(Reader& db, QList<AlertRecord>& alerts) const override;
    void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const override;

    // The handler's answer, read as the lab reads a reply: its status and
    // the result the challenge names.
    Reply replyOf(const QVariant& answer) const;

private:
    Task<Reply> runHandler(Attempt& a) const;

    const Challenge& challenge_;
    const Scenario& base_;
    ScenarioInfo info_;
};

// The scenario of every challenge, found by findScenario once registered.
const ChallengeScenario* findChallengeScenario(const QString& challengeId);
void registerChallengeScenarios();

}  // namespace idem
