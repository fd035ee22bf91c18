// A workbench challenge as data (resources/challenges/<id>.json): the story
// in both languages, the role the student writes, the lab scenario whose
// tables and judge it reuses, the request the handler gets, how its answer
// is read, the attacks, the hints, and the starter and reference handlers.
#pragma once

#include "vocabulary.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace idem {

// Both languages of one text.
struct Words {
    QString zh;
    QString en;
    QString in(const QString& lang) const { return lang == QLatin1String("zh") ? zh : en; }
};

// One family of configurations the attack explores: how the duplicates come
// (source, timing, how many), and whether each attempt is also crashed at
// every statement boundary and its answer lost.
struct Attack {
    Source source = Source::DoubleClick;
    Timing timing = Timing::Concurrent;
    int duplicates = 1;
    bool crashes = true;
    // The first attempt also stalls past its lease before each statement.
    bool pauses = false;
    QMap<QString, QString> params;  // the scenario's own parameters
};

struct Challenge {
    QString id;
    int order = 0;  // its place on the ladder
    QString scenario;
    Words title;
    Words story;
    Words role;
    QVariantMap request;  // what the handler's request holds, before the attempt's payload
    QString resultKey;    // the answer's field that carries the business result
    QList<Attack> attacks;
    // Targets where the article names a price: the most statements one
    // request may send (0: no limit).
    int statementBudget = 0;
    // The most deadlocks a check's run may have (-1: no target): a handler
    // that survives its deadlocks by retrying still pays for each one.
    int maxDeadlocks = -1;
    // Where the check runs unless told ("sqlite" for most; a challenge
    // about one server names it), and whether at each isolation level.
    QStringList backends{QStringLiteral("sqlite")};
    bool everyIsolation = false;
    QList<Words> hints;
    QString starter;    // the handler a student starts from (it fails)
    QString reference;  // a handler that passes
};

// Every challenge, in the ladder's order (read once from the resources).
const QList<Challenge>& allChallenges();
const Challenge* findChallenge(const QString& id);
// The scenario id a challenge's runs carry in their configuration.
QString challengeScenarioId(const QString& challengeId);

}  // namespace idem
