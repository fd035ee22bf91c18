#include "challenge.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace idem {

namespace {

const QString kFolder = QStringLiteral(":/challenges/");

Words wordsOf(const QJsonValue& v) {
    const QJsonObject o = v.toObject();
    return Words{o.value("zh").toString(), o.value("en").toString()};
}

QString textFile(const QString& name) {
    QFile f(kFolder + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("the challenge file %s is missing from the program", qPrintable(name));
    return QString::fromUtf8(f.readAll());
}

// The bundled files are part of the program: one that does not read is a
// build mistake, caught by the workbench's tests.
Challenge challengeOf(const QJsonObject& o) {
    Challenge c;
    c.id = o.value("id").toString();
    c.order = o.value("order").toInt();
    c.scenario = o.value("scenario").toString();
    c.title = wordsOf(o.value("title"));
    c.story = wordsOf(o.value("story"));
    c.role = wordsOf(o.value("role"));
    c.request = o.value("request").toObject().toVariantMap();
    c.resultKey = o.value("result").toString();
    for (const QJsonValue& a : o.value("attacks").toArray()) {
        const QJsonObject ao = a.toObject();
        Attack attack;
        attack.source = sourceFromId(ao.value("source").toString()).value_or(Source::DoubleClick);
        attack.timing = timingFromId(ao.value("timing").toString()).value_or(Timing::Concurrent);
        attack.duplicates = ao.value("duplicates").toInt(1);
        attack.crashes = ao.value("crashes").toBool(true);
        attack.pauses = ao.value("pauses").toBool(false);
        const QJsonObject params = ao.value("params").toObject();
        for (auto it = params.begin(); it != params.end(); ++it)
            attack.params.insert(it.key(), it.value().toString());
        c.attacks << attack;
    }
    const QJsonObject targets = o.value("targets").toObject();
    c.statementBudget = targets.value("statements_per_request").toInt();
    c.maxDeadlocks = targets.value("deadlocks").toInt(-1);
    if (o.contains("backends")) {
        c.backends.clear();
        for (const QJsonValue& b : o.value("backends").toArray()) c.backends << b.toString();
    }
    c.everyIsolation = o.value("isolations").toString() == QLatin1String("all");
    for (const QJsonValue& h : o.value("hints").toArray()) c.hints << wordsOf(h);
    c.starter = textFile(o.value("starter").toString());
    c.reference = textFile(o.value("reference").toString());
    return c;
}

}  // namespace

const QList<Challenge>& allChallenges() {
    static const QList<Challenge> all = [] {
        QList<Challenge> list;
        const QStringList files =
            QDir(kFolder).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QString& name : files) {
            QFile f(kFolder + name);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            list << challengeOf(QJsonDocument::fromJson(f.readAll()).object());
        }
        std::stable_sort(list.begin(), list.end(),
                         [](const Challenge& a, const Challenge& b) { return a.order < b.order; });
        return list;
    }();
    return all;
}

const Challenge* findChallenge(const QString& id) {
    for (const Challenge& c : allChallenges()) {
        if (c.id == id)
            return &c;
    }
    return nullptr;
}

QString challengeScenarioId(const QString& challengeId) {
    return QStringLiteral("challenge:") + challengeId;
}

}  // namespace idem
