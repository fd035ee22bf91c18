// What the fire panel says about a configuration, in the window's words:
// the settings in one line, and what keeps a configuration from running (a
// number out of range, a choice the scenario does not have, a variant
// without this database's SQL, a server not installed).
#include "firepanel.h"

#include "backendnames.h"
#include "challenge.h"
#include "configcheck.h"
#include "firepanelrows.h"
#include "names.h"
#include "recordedbackend.h"
#include "registry.h"
#include "serverinstall.h"
#include "texts.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

namespace idem {

namespace firepanel {

namespace {

const char* const kRowLabels[kRows] = {
    QT_TRANSLATE_NOOP("idem::FirePanel", "Varia&nt"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "&Duplicates"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "S&ource"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "&Timing"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "&Crash point"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "Crash &attempt"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "S&eed"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "&Intents"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "Data&base"),
    QT_TRANSLATE_NOOP("idem::FirePanel", "Isolation level"),
    // No letter of its own: the panel's are taken; Tab from the level.
    QT_TRANSLATE_NOOP("idem::FirePanel", "Redis"),
};

}  // namespace

QString rowLabel(Row row) {
    return QCoreApplication::translate("idem::FirePanel", kRowLabels[row]);
}

QString isolationName(const QString& id) {
    if (id == QLatin1String("read-committed"))
        return FirePanel::tr("Read committed");
    if (id == QLatin1String("repeatable-read"))
        return FirePanel::tr("Repeatable read");
    if (id == QLatin1String("serializable"))
        return FirePanel::tr("Serializable");
    return id;
}

}  // namespace firepanel

using namespace firepanel;

namespace {

// A label as a sentence names it: without its mnemonic, "&Duplicates" →
// "Duplicates", "重复次数(&D)" → "重复次数"; "&&" stays a single "&".
QString withoutMnemonic(const QString& label) {
    static const QRegularExpression bracketed(QStringLiteral("\\s*[(（]&[^&][)）]"));
    QString text = label;
    text.remove(bracketed);
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('&') && i + 1 < text.size())
            ++i;  // "&x" → "x", "&&" → "&"
        out += text[i];
    }
    return out;
}

// The name of a number field: the panel's label where the panel has one.
QString numberFieldName(NumberField field) {
    switch (field) {
        case NumberField::Duplicates:
            return withoutMnemonic(rowLabel(DuplicatesRow));
        case NumberField::CrashAttempt:
            return withoutMnemonic(rowLabel(CrashAttemptRow));
        case NumberField::Seed:
            return withoutMnemonic(rowLabel(SeedRow));
        case NumberField::Intents:
            return withoutMnemonic(rowLabel(IntentsRow));
        case NumberField::MaxRetries:
            return FirePanel::tr("Retries at most");
        case NumberField::IntervalMs:
            return FirePanel::tr("Interval between attempts (ms)");
        case NumberField::ExpiryMs:
            return FirePanel::tr("In-progress expiry (ms)");
        case NumberField::RetentionMs:
            return FirePanel::tr("Dedup record retention (ms)");
        case NumberField::TtlMs:
            return FirePanel::tr("Cache TTL (ms)");
        case NumberField::LeaseMs:
            return FirePanel::tr("Lock lease (ms)");
        case NumberField::VisibilityMs:
            return FirePanel::tr("Visibility timeout (ms)");
    }
    return {};
}

QString listed(const QStringList& names) {
    return names.join(FirePanel::tr(", "));
}

QString variantName(const ScenarioInfo& info, const QString& variant) {
    const QString title = Texts::instance().variantTitle(info.id, variant);
    return title.isEmpty() ? variant : title;
}

QString numberProblemText(const NumberProblem& p, const ScenarioInfo& info) {
    QString field = p.param ? info.words.paramLabel(p.field) : QString();
    if (!p.param) {
        for (NumberField f : kNumberFields) {
            if (optionName(f) == p.field)
                field = numberFieldName(f);
        }
    }
    const QString text = p.kind == NumberProblem::Kind::NotWholeNumber
                             ? FirePanel::tr("%1 %2 is not a whole number (allowed %3 to %4)")
                             : FirePanel::tr("%1 %2 is out of range (allowed %3 to %4)");
    return text.arg(field, shownValue(p.value)).arg(p.allowed.min).arg(p.allowed.max);
}

QString choiceProblemText(const ChoiceProblem& p, const RunConfig& c, const ScenarioInfo& info) {
    const QString title = Texts::instance().get(info.id, QStringLiteral("title"));
    const QString scenario = title.isEmpty() ? info.id : title;
    QStringList names;
    switch (p.kind) {
        case ChoiceProblem::Kind::Variant:
            for (const QString& id : p.allowed) names << variantName(info, id);
            return FirePanel::tr("%1 has no variant “%2” (its variants: %3)")
                .arg(scenario, p.value, listed(names));
        case ChoiceProblem::Kind::Source: {
            for (const QString& id : p.allowed) names << sourceName(*sourceFromId(id));
            return FirePanel::tr("%1 does not occur in %2 (its sources: %3)")
                .arg(sourceName(*sourceFromId(p.value)), scenario, listed(names));
        }
        case ChoiceProblem::Kind::CrashPoint:
            // A variant without crash points offers only the panel's "no crash".
            names << crashPointName(CrashPoint::None);
            for (const QString& id : p.allowed) names << crashPointName(*crashPointFromId(id));
            return FirePanel::tr("%1 has no crash point “%2” (it offers: %3)")
                .arg(variantName(info, c.variant), crashPointName(*crashPointFromId(p.value)),
                     listed(names));
        case ChoiceProblem::Kind::Param:
            if (p.allowed.isEmpty()) {
                return FirePanel::tr("%1 has no settings of its own; “%2” is not one")
                    .arg(scenario, p.value);
            }
            for (const QString& key : p.allowed) names << info.words.paramLabel(key);
            return FirePanel::tr("%1 has no setting “%2” (its settings: %3)")
                .arg(scenario, p.value, listed(names));
        case ChoiceProblem::Kind::ParamValue:
            for (const QString& value : p.allowed)
                names << info.words.paramValueName(p.param, value);
            return FirePanel::tr("%1 cannot be %2 (allowed: %3)")
                .arg(info.words.paramLabel(p.param), shownValue(p.value), listed(names));
    }
    return {};
}
}  // namespace

QString FirePanel::unavailableText(const VariantInfo& v, const QString& backend) {
    if (backend == QLatin1String("sqlite") || backend.isEmpty()) {
        if (v.serverOnly)
            return tr(
                "Needs MariaDB or PostgreSQL: SQLite has no SELECT … FOR UPDATE (it "
                "locks the whole database instead).");
        return {};
    }
    if (!v.servers.contains(backend))
        return tr("No %1 form of its SQL yet: it runs on SQLite.").arg(backendName(backend));
    return {};
}

QString FirePanel::missingServerText(const QString& backend) {
    const QString package = missingServerPackage(backend);
    if (package.isEmpty())
        return {};
    return tr("%1 is not installed on this computer: its Debian package %2 is missing. "
              "To install it: %3. SQLite needs nothing.")
        .arg(backendName(backend), package, installCommand(package));
}

QString FirePanel::recordingText(const Recording& recording) {
    return tr("Plays the recording %1: %2 is not installed on this computer, so the "
              "database's answers, its locks and its rows come from that trace.")
        .arg(QFileInfo(recording.path).fileName(), backendName(recording.config.backend));
}

QString FirePanel::describe(const RunConfig& c, bool withVariant) {
    const Texts& t = Texts::instance();
    const Scenario* scenario = findScenario(c.scenario);
    QString title = t.get(c.scenario, "title");
    QString variant = t.variantTitle(c.scenario, c.variant);
    if (variant.isEmpty())
        variant = c.variant;
    if (scenario) {
        if (const VariantInfo* v = scenario->info().variant(c.variant); v && v->recommended)
            variant = QStringLiteral("★ ") + variant;
    }
    // A workbench run: the challenge, and the handler's file for its variant.
    if (const Challenge* challenge =
            findChallenge(c.workbench.value(QLatin1String("challenge")).toString())) {
        title = tr("%1 (workbench)").arg(challenge->title.in(languageCode(currentLanguage())));
        variant = c.workbench.value(QLatin1String("file")).toString();
    }
    QStringList parts{title.isEmpty() ? c.scenario : title};
    if (withVariant)
        parts << variant;
    return (parts << settingsText(c)).join(QStringLiteral(" · "));
}

QString FirePanel::settingsText(const RunConfig& c) {
    QStringList parts;
    if (!c.backend.isEmpty() && c.backend != QLatin1String("sqlite")) {
        parts << (c.isolation.isEmpty()
                      ? backendName(c.backend)
                      : tr("%1 (%2)").arg(backendName(c.backend), isolationName(c.isolation)));
    }
    if (c.redis != QLatin1String("off"))
        parts << tr("real Redis");
    parts << tr("duplicates: %1").arg(c.duplicates) << sourceName(c.source) << timingName(c.timing);
    const QString relay = crashedHelperTag(c.crash, c.crashAttempt);
    parts << (c.crash == CrashPoint::None ? crashPointName(c.crash)
              : !relay.isEmpty()
                  ? tr("crash %1 (relay pass %2)").arg(crashPointName(c.crash), relay)
                  : tr("crash %1 (attempt %2)").arg(crashPointName(c.crash)).arg(c.crashAttempt));
    if (c.intents > 1)
        parts << tr("intents: %1").arg(c.intents);
    // Parameters in the window's words ("late FAILED callback: on", "迟到的失败回调：开").
    const Scenario* scenario = findScenario(c.scenario);
    const ScenarioWords& words = scenario ? scenario->info().words : ScenarioWords::none();
    for (auto it = c.params.cbegin(); it != c.params.cend(); ++it)
        parts << tr("%1: %2").arg(words.paramLabel(it.key()),
                                  words.paramValueName(it.key(), it.value()));
    parts << tr("seed %1").arg(c.seed);
    return parts.join(QStringLiteral(" · "));
}

QString FirePanel::problemText(const RunConfig& config, const ScenarioInfo& info) {
    if (const std::optional<ChoiceProblem> p = findChoiceProblem(config, info))
        return choiceProblemText(*p, config, info);
    if (const std::optional<NumberProblem> p = checkNumbers(config, info))
        return numberProblemText(*p, info);
    if (!backendIds().contains(config.backend))
        return tr("There is no database “%1” (the lab has: %2)")
            .arg(config.backend, listed(backendIds()));
    if (!config.isolation.isEmpty() && !isolationIds(config.backend).contains(config.isolation)) {
        QStringList names;
        for (const QString& id : isolationIds(config.backend)) names << isolationName(id);
        return tr("%1 has no isolation level “%2” (its levels: %3)")
            .arg(backendName(config.backend), config.isolation, listed(names));
    }
    if (const VariantInfo* v = info.variant(config.variant)) {
        const QString unavailable = unavailableText(*v, config.backend);
        if (!unavailable.isEmpty())
            return variantName(info, v->id) + QStringLiteral(": ") + unavailable;
    }
    // A recording plays where its server is missing.
    return config.recording ? QString() : missingServerText(config.backend);
}

}  // namespace idem
