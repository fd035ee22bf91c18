#include "firepanel.h"

#include "backendnames.h"
#include "configcheck.h"
#include "firepanelrows.h"
#include "names.h"
#include "privateredis.h"
#include "recordedbackend.h"
#include "registry.h"
#include "relativefont.h"
#include "serverinstall.h"
#include "texts.h"
#include "tracewords.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>

namespace idem {

using namespace firepanel;

namespace {
void shrinkable(QComboBox* box) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(8);
}

// What an isolation level changes on `backend`.
QString isolationHelp(const QString& backend, const QString& id) {
    if (backend == QLatin1String("sqlite"))
        return FirePanel::tr(
            "SQLite has this level only: one writer at a time, so a second "
            "writer's BEGIN IMMEDIATE waits for the first. Choose MariaDB or "
            "PostgreSQL for the others.");
    if (id == QLatin1String("read-committed"))
        return backend == QLatin1String("mariadb")
                   ? FirePanel::tr(
                         "Each statement sees what was committed before it began. "
                         "InnoDB takes no gap locks at this level: a "
                         "locking read of a missing key waits instead of deadlocking.")
                   : FirePanel::tr(
                         "Each statement sees what was committed before it began "
                         "(PostgreSQL's default): two transactions can both find "
                         "nothing and both insert.");
    if (id == QLatin1String("repeatable-read"))
        return backend == QLatin1String("mariadb")
                   ? FirePanel::tr(
                         "The transaction reads one snapshot throughout "
                         "(MariaDB's default); locking reads take gap locks, which "
                         "can deadlock.")
                   : FirePanel::tr(
                         "The transaction reads one snapshot throughout; a write "
                         "that meets a newer committed version fails with a "
                         "serialization failure.");
    return backend == QLatin1String("mariadb")
               ? FirePanel::tr(
                     "As if the transactions ran one after another: every read "
                     "locks what it read, so conflicting transactions deadlock and "
                     "one is rolled back.")
               : FirePanel::tr(
                     "As if the transactions ran one after another: the server "
                     "refuses a commit that no such order explains (serialization "
                     "failure).");
}

QString backendHelp(const QString& backend) {
    if (backend == QLatin1String("mariadb"))
        return FirePanel::tr(
            "A private MariaDB 10.11 server (InnoDB, the article's MySQL "
            "dialect) that the lab starts itself: row and gap locks, waits, "
            "deadlocks. The first start takes a few seconds.");
    if (backend == QLatin1String("postgres"))
        return FirePanel::tr(
            "A private PostgreSQL 15 server that the lab starts itself: row "
            "locks, waits, serialization failures. The first start takes a "
            "few seconds.");
    return FirePanel::tr(
        "SQLite, inside the lab: nothing to start, one writer at a time "
        "(a second writer waits for the whole database).");
}

}  // namespace

FirePanel::FirePanel(QWidget* parent)
    : QWidget(parent),
      form_(new QFormLayout),
      variant_(new QComboBox(this)),
      backend_(new QComboBox(this)),
      isolation_(new QComboBox(this)),
      redis_(new QComboBox(this)),
      backendNote_(new QLabel(this)),
      duplicates_(new QSpinBox(this)),
      source_(new QComboBox(this)),
      timing_(new QComboBox(this)),
      crash_(new QComboBox(this)),
      crashAttempt_(new QSpinBox(this)),
      seed_(new QSpinBox(this)),
      intents_(new QSpinBox(this)),
      fire_(new QPushButton(this)) {
    // The settings scroll on a small screen; Fire stays in sight below them.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    auto* fields = new QWidget(this);
    auto* fieldsLayout = new QVBoxLayout(fields);
    fieldsLayout->setContentsMargins(0, 0, 0, 0);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    fieldsLayout->addLayout(form_);
    fieldsLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Not a Tab stop: it scrolls to whichever field has the focus.
    scroll->setFocusPolicy(Qt::NoFocus);
    outer->addWidget(scroll, 1);
    QWidget* inputs[] = {variant_, duplicates_, source_,  timing_,    crash_, crashAttempt_,
                         seed_,    intents_,    backend_, isolation_, redis_};
    const char* ids[] = {"variant", "duplicates", "source",  "timing",    "crash", "crashAttempt",
                         "seed",    "intents",    "backend", "isolation", "redis"};
    for (int i = 0; i < kRows; ++i) {
        inputs[i]->setObjectName(QLatin1String(ids[i]));
        labels_[i] = new QLabel(this);
        labels_[i]->setObjectName(QLatin1String(ids[i]) + QStringLiteral("Label"));
        labels_[i]->setBuddy(inputs[i]);
    }
    // The database right under the variant: it decides which variants run.
    for (Row row : {VariantRow, BackendRow, IsolationRow, RedisRow})
        form_->addRow(labels_[row], inputs[row]);
    backendNote_->setObjectName(QStringLiteral("backendNote"));
    backendNote_->setWordWrap(true);
    backendNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    backendNote_->hide();
    form_->addRow(backendNote_);
    for (Row row :
         {DuplicatesRow, SourceRow, TimingRow, CrashRow, CrashAttemptRow, SeedRow, IntentsRow})
        form_->addRow(labels_[row], inputs[row]);
    for (const QString& id : backendIds()) backend_->addItem(backendName(id), id);
    // Long names (a variant's title) must not make the panel wider than a
    // small screen: the box shrinks, the open list shows them whole.
    for (QComboBox* box : {variant_, backend_, isolation_, redis_, source_, timing_, crash_})
        shrinkable(box);
    redis_->addItem(QString(), QStringLiteral("off"));
    redis_->addItem(QString(), QStringLiteral("private"));
    duplicates_->setRange(0, kMaxDuplicates);
    crashAttempt_->setRange(1, 50);
    seed_->setRange(0, std::numeric_limits<int>::max());
    intents_->setRange(1, 50);
    for (Timing t : {Timing::Concurrent, Timing::Retry, Timing::Compensation, Timing::CrossDay}) {
        timing_->addItem(QString(), toId(t));
    }
    setRelativeFont(fire_, 1.3, true);
    fire_->setDefault(true);
    outer->addWidget(fire_);
    connect(fire_, &QPushButton::clicked, this, &FirePanel::fireRequested);
    connect(variant_, &QComboBox::currentIndexChanged, this, [this] {
        fillCrashPoints();
        fillRedis();
    });
    connect(backend_, &QComboBox::currentIndexChanged, this, &FirePanel::backendChanged);
    fillIsolations();
    connect(crash_, &QComboBox::currentIndexChanged, this, [this] {
        crashAttempt_->setEnabled(crash_->currentData().toString() != toId(CrashPoint::None));
    });
    retranslate();
}

void FirePanel::setScenario(const Scenario& scenario) {
    scenario_ = &scenario;
    const ScenarioInfo& info = scenario.info();
    {
        const QSignalBlocker b(source_);
        source_->clear();
        for (Source s : info.sources) source_->addItem(sourceName(s), toId(s));
    }
    fillVariants();
    rebuildParams();
    setConfig(defaultConfig(scenario));
}

void FirePanel::fillVariants() {
    if (!scenario_)
        return;
    const QString current = variant_->currentData().toString();
    const QSignalBlocker b(variant_);
    variant_->clear();
    const ScenarioInfo& info = scenario_->info();
    const QString backend = backend_->currentData().toString();
    auto* items = qobject_cast<QStandardItemModel*>(variant_->model());
    int recommended = -1;
    for (const VariantInfo& v : info.variants) {
        QString title = Texts::instance().variantTitle(info.id, v.id);
        if (title.isEmpty())
            title = v.id;
        QString label = v.recommended ? tr("★ %1 (recommended)").arg(title) : title;
        // A variant without this database's form is shown, greyed, saying why.
        const QString unavailable = unavailableText(v, backend);
        if (!unavailable.isEmpty())
            label = tr("%1 (not on %2)").arg(label, backendName(backend));
        variant_->addItem(label, v.id);
        const int row = variant_->count() - 1;
        QString tip = v.id + QStringLiteral(": ") + v.summary;
        if (!unavailable.isEmpty()) {
            tip = unavailable + QLatin1Char('\n') + tip;
            if (items)
                items->item(row)->setEnabled(false);
        } else if (v.recommended) {
            recommended = row;
        }
        variant_->setItemData(row, tip, Qt::ToolTipRole);
    }
    auto enabled = [&](int row) {
        return row >= 0 && (!items || items->item(row)->isEnabled());
    };
    // The choice stays where it can; else the recommended variant, else the
    // first that runs on this database.
    int i = variant_->findData(current);
    if (!enabled(i))
        i = recommended;
    for (int row = 0; !enabled(i) && row < variant_->count(); ++row) i = row;
    if (enabled(i))
        variant_->setCurrentIndex(i);
    fillCrashPoints();
    fillRedis();
}

void FirePanel::fillCrashPoints() {
    if (!scenario_)
        return;
    const QString current = crash_->currentData().toString();
    const QSignalBlocker b(crash_);
    crash_->clear();
    crash_->addItem(crashPointName(CrashPoint::None), toId(CrashPoint::None));
    if (const VariantInfo* v = scenario_->info().variant(variant_->currentData().toString())) {
        for (CrashPoint p : v->crashPoints) crash_->addItem(crashPointName(p), toId(p));
    }
    const int i = crash_->findData(current);
    crash_->setCurrentIndex(i >= 0 ? i : 0);
    crashAttempt_->setEnabled(crash_->currentData().toString() != toId(CrashPoint::None));
}

void FirePanel::fillRedis() {
    const VariantInfo* v =
        scenario_ ? scenario_->info().variant(variant_->currentData().toString()) : nullptr;
    const bool offered = v && v->redis;
    const QString missing = PrivateRedis::missingPackage();
    auto* items = qobject_cast<QStandardItemModel*>(redis_->model());
    if (items)
        items->item(1)->setEnabled(missing.isEmpty());
    redis_->setItemData(
        1,
        missing.isEmpty()
            ? tr("The lab starts a redis-server of its own for the run (a local socket, nothing "
                 "written to disk) and stops it afterwards.")
            : tr("Redis is not installed on this computer (Debian package %1).").arg(missing),
        Qt::ToolTipRole);
    if (!offered || !missing.isEmpty())
        redis_->setCurrentIndex(0);
    redis_->setEnabled(offered && missing.isEmpty());
    redis_->setToolTip(
        offered ? tr("Where this variant keeps its keys: a table of the run's database that "
                     "plays Redis, or a real Redis whose keys expire in real time.")
                : tr("This variant keeps nothing in Redis."));
}

void FirePanel::fillIsolations() {
    const QString backend = backend_->currentData().toString();
    // A level chosen on one server stays on the next where it has it; a
    // server's own level gives way to the next one's (SQLite's only level is
    // no choice either).
    const bool chosen = isolation_->isEnabled() && isolation_->currentIndex() > 0;
    const QString current = chosen ? isolation_->currentData().toString() : QString();
    const QStringList levels = isolationIds(backend);
    {
        const QSignalBlocker b(isolation_);
        isolation_->clear();
        for (const QString& id : levels) {
            // The first is the database's own: the one a run gets unless told.
            const QString name = id == levels.first() ? tr("%1 (default)").arg(isolationName(id))
                                                      : isolationName(id);
            isolation_->addItem(name, id);
            isolation_->setItemData(isolation_->count() - 1, isolationHelp(backend, id),
                                    Qt::ToolTipRole);
        }
        const int i = isolation_->findData(current);
        isolation_->setCurrentIndex(i >= 0 ? i : 0);
    }
    // SQLite's one level is shown, not offered.
    isolation_->setEnabled(levels.size() > 1);
    isolation_->setToolTip(
        levels.size() > 1
            ? tr("How much the transactions of concurrent attempts see of each other, and "
                 "which conflicts the server refuses: it decides whether a check inside a "
                 "transaction lets a duplicate through, waits, deadlocks or fails to serialize.")
            : isolationHelp(backend, levels.value(0)));
}

void FirePanel::backendChanged() {
    const QString backend = backend_->currentData().toString();
    backend_->setToolTip(backendHelp(backend));
    fillIsolations();
    fillVariants();
    showBackendNote();
}

void FirePanel::showBackendNote() {
    const QString backend = backend_->currentData().toString();
    QString note = missingServerText(backend);
    if (!note.isEmpty() && recording_ && recording_->config.backend == backend)
        note = recordingText(*recording_);
    backendNote_->setText(note);
    backendNote_->setVisible(!note.isEmpty());
}

void FirePanel::rebuildParams() {
    for (QWidget* w : paramRows_) form_->removeRow(w);
    paramRows_.clear();
    params_.clear();
    if (!scenario_)
        return;
    for (const ParamInfo& p : scenario_->info().params) {
        QWidget* field = nullptr;
        if (!p.allowed.isEmpty()) {
            auto* box = new QComboBox(this);
            shrinkable(box);
            for (const QString& v : p.allowed)
                box->addItem(scenario_->info().words.paramValueName(p.key, v), v);
            box->setCurrentIndex(std::max(0, box->findData(p.defaultValue)));
            field = box;
        } else {
            auto* spin = new QSpinBox(this);
            spin->setRange(int(p.min),
                           int(std::min<qint64>(p.max, std::numeric_limits<int>::max())));
            spin->setValue(p.defaultValue.toInt());
            field = spin;
        }
        // The key as the command line spells it, beside what it does.
        const ScenarioWords& words = scenario_->info().words;
        field->setToolTip(p.key + QStringLiteral(": ") + words.paramHelp(p.key, p.summary));
        field->setObjectName(QStringLiteral("param-") + p.key);
        form_->addRow(words.paramLabel(p.key), field);
        params_.insert(p.key, field);
        paramRows_ << field;
    }
}

void FirePanel::setConfig(const RunConfig& c) {
    recording_ = c.recording;
    auto select = [](QComboBox* box, const QString& id) {
        const int i = box->findData(id);
        if (i >= 0)
            box->setCurrentIndex(i);
    };
    // The database first: it decides which variants are offered.
    select(backend_, c.backend.isEmpty() ? QStringLiteral("sqlite") : c.backend);
    select(variant_, c.variant);
    select(isolation_, c.isolation.isEmpty() ? isolationIds(c.backend).value(0) : c.isolation);
    fillCrashPoints();
    fillRedis();
    // A user's server (a URL) is the command line's: the panel offers the lab's own.
    select(redis_, c.redis == QLatin1String("off") ? c.redis : QStringLiteral("private"));
    if (!redis_->isEnabled())
        redis_->setCurrentIndex(0);
    select(source_, toId(c.source));
    select(timing_, toId(c.timing));
    select(crash_, toId(c.crash));
    duplicates_->setValue(c.duplicates);
    crashAttempt_->setValue(c.crashAttempt);
    seed_->setValue(int(std::min<quint32>(c.seed, std::numeric_limits<int>::max())));
    intents_->setValue(std::clamp(c.intents, 1, intents_->maximum()));
    for (auto it = c.params.cbegin(); it != c.params.cend(); ++it) {
        QWidget* w = params_.value(it.key());
        if (auto* box = qobject_cast<QComboBox*>(w))
            select(box, it.value());
        if (auto* spin = qobject_cast<QSpinBox*>(w))
            spin->setValue(it.value().toInt());
    }
    showBackendNote();
}

RunConfig FirePanel::config() const {
    RunConfig c = scenario_ ? defaultConfig(*scenario_) : RunConfig{};
    c.variant = variant_->currentData().toString();
    c.backend = backend_->currentData().toString();
    // The database's own level stays unnamed, as on the command line.
    c.isolation = isolation_->currentIndex() > 0 ? isolation_->currentData().toString() : QString();
    c.redis = redis_->isEnabled() ? redis_->currentData().toString() : QStringLiteral("off");
    c.duplicates = duplicates_->value();
    if (auto s = sourceFromId(source_->currentData().toString()))
        c.source = *s;
    if (auto t = timingFromId(timing_->currentData().toString()))
        c.timing = *t;
    if (auto p = crashPointFromId(crash_->currentData().toString()))
        c.crash = *p;
    c.crashAttempt = crashAttempt_->value();
    c.seed = quint32(seed_->value());
    c.intents = intents_->value();
    if (scenario_) {
        for (const ParamInfo& p : scenario_->info().params) {
            QWidget* w = params_.value(p.key);
            QString value;
            if (auto* box = qobject_cast<QComboBox*>(w))
                value = box->currentData().toString();
            if (auto* spin = qobject_cast<QSpinBox*>(w))
                value = QString::number(spin->value());
            if (value != p.defaultValue)
                c.params.insert(p.key, value);
        }
    }
    // The recorded run's settings: it plays again from its recording.
    if (recording_) {
        RunConfig asked = c;
        if (asked.isolation.isEmpty())
            asked.isolation = recording_->config.isolation;
        if (asked.toJson() == recording_->config.toJson()) {
            c = recording_->config;
            c.recording = recording_;
        }
    }
    return c;
}

void FirePanel::retranslate() {
    for (int i = 0; i < kRows; ++i) labels_[i]->setText(rowLabel(Row(i)));
    fire_->setText(tr("Fire! 发射"));
    fire_->setToolTip(tr("Run the scenario with these settings (F5)"));
    duplicates_->setToolTip(tr("How many more times the same intent arrives"));
    crashAttempt_->setToolTip(
        tr("Which attempt dies at the crash point (1 = the original; at "
           "after-publish, which pass of the relay)"));
    seed_->setToolTip(tr("Decides the order of concurrent arrivals and statement costs"));
    intents_->setToolTip(tr("Independent business intents, each with its own duplicates"));
    for (int i = 0; i < backend_->count(); ++i)
        backend_->setItemData(i, backendHelp(backend_->itemData(i).toString()), Qt::ToolTipRole);
    backend_->setAccessibleName(tr("Database the run uses"));
    isolation_->setAccessibleName(tr("Isolation level of the run's transactions"));
    redis_->setItemText(0, tr("Simulated (a table)"));
    redis_->setItemText(1, tr("A real Redis (private server)"));
    redis_->setAccessibleName(tr("Where the variant keeps its keys"));
    fillRedis();
    for (int i = 0; i < timing_->count(); ++i) {
        timing_->setItemText(i, timingName(*timingFromId(timing_->itemData(i).toString())));
    }
    for (int i = 0; i < source_->count(); ++i) {
        source_->setItemText(i, sourceName(*sourceFromId(source_->itemData(i).toString())));
    }
    for (int i = 0; i < crash_->count(); ++i) {
        crash_->setItemText(i, crashPointName(*crashPointFromId(crash_->itemData(i).toString())));
    }
    const ScenarioWords& words = scenario_ ? scenario_->info().words : ScenarioWords::none();
    for (auto it = params_.cbegin(); it != params_.cend(); ++it) {
        if (auto* label = qobject_cast<QLabel*>(form_->labelForField(it.value())))
            label->setText(words.paramLabel(it.key()));
        const ParamInfo* p = scenario_ ? scenario_->info().param(it.key()) : nullptr;
        it.value()->setToolTip(it.key() + QStringLiteral(": ") +
                               words.paramHelp(it.key(), p ? p->summary : QString()));
        if (auto* box = qobject_cast<QComboBox*>(it.value())) {
            for (int i = 0; i < box->count(); ++i)
                box->setItemText(i, words.paramValueName(it.key(), box->itemData(i).toString()));
        }
    }
    // The variants, the levels and the note, in the new language.
    backendChanged();
}

void FirePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

}  // namespace idem
