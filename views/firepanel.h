// The fire panel (发射): variant (recommended marked, the unguarded one always
// there for contrast), the database it runs on and its isolation level (live
// mode), duplicates, source, timing, crash point (only the variant's) and
// which attempt, seed, and the scenario's own params; where the variant has
// a Redis form, whether its keys live in a real Redis.
#pragma once

#include "runconfig.h"

#include <QMap>
#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace idem {

class Scenario;
struct Recording;
struct ScenarioInfo;
struct VariantInfo;

class FirePanel : public QWidget {
    Q_OBJECT
public:
    explicit FirePanel(QWidget* parent = nullptr);
    void setScenario(const Scenario& scenario);
    // Shows a configuration (from the command line, a trace, settings).
    void setConfig(const RunConfig& config);
    RunConfig config() const;
    // The settings in one line: scenario · variant · duplicates · source ·
    // timing · crash · seed (and the params that differ from their defaults).
    static QString describe(const RunConfig& config, bool withVariant = true);
    // The same without the scenario and the variant: duplicates · source ·
    // timing · crash · params · seed.
    static QString settingsText(const RunConfig& config);
    // What keeps `config` from running, in the window's words: the panel's
    // field labels and the names it shows for variants, sources, crash
    // points and parameters, translated ("Duplicates 5000 is out of range
    // (allowed 0 to 1000)"); empty when it can run. The command line says
    // the same with its options (checkConfig).
    static QString problemText(const RunConfig& config, const ScenarioInfo& info);
    QPushButton* fireButton() const { return fire_; }
    QComboBox* variantBox() const { return variant_; }
    QComboBox* backendBox() const { return backend_; }
    QComboBox* isolationBox() const { return isolation_; }
    // off (the simulation, a table) or private (a redis-server of the lab's
    // own); enabled for a variant that keeps keys in Redis.
    QComboBox* redisBox() const { return redis_; }
    // What the panel says under the database when its server is missing.
    QLabel* backendNote() const { return backendNote_; }
    // Why a variant cannot run on a backend, in the window's words; empty
    // when it can (its SQL has that database's form, or needs none).
    static QString unavailableText(const VariantInfo& variant, const QString& backend);
    // Why a backend cannot start here (its server's package is missing),
    // with how to install it; empty when it can.
    static QString missingServerText(const QString& backend);
    // What the panel says under the database when the run plays a
    // recording of it (recordedbackend.h): which file, and why.
    static QString recordingText(const Recording& recording);
    QComboBox* crashBox() const { return crash_; }
    QComboBox* timingBox() const { return timing_; }
    QSpinBox* duplicatesBox() const { return duplicates_; }

signals:
    void fireRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fillVariants();
    void fillCrashPoints();
    void fillIsolations();
    // Offers Redis to a variant that has a Redis form (and where
    // redis-server is installed), else shows the simulation, disabled.
    void fillRedis();
    // The backend chosen: variants enabled or not, the isolation levels, the note.
    void backendChanged();
    void rebuildParams();
    void showBackendNote();

    const Scenario* scenario_ = nullptr;
    QFormLayout* form_;
    QComboBox* variant_;
    QComboBox* backend_;
    QComboBox* isolation_;
    QComboBox* redis_;
    QLabel* backendNote_;
    QSpinBox* duplicates_;
    QComboBox* source_;
    QComboBox* timing_;
    QComboBox* crash_;
    QSpinBox* crashAttempt_;
    QSpinBox* seed_;
    QSpinBox* intents_;
    QPushButton* fire_;
    QLabel* labels_[11] = {};
    QMap<QString, QWidget*> params_;
    QList<QWidget*> paramRows_;
    // The recording the configuration shown plays (a server trace opened
    // where its server is missing); config() carries it while the
    // settings are the recorded run's.
    std::shared_ptr<const Recording> recording_;
};

}  // namespace idem
