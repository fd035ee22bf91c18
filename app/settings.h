// Every QSettings key the window uses, with its default, in one place.
#pragma once

#include <QString>

namespace idem::settings {

inline const QString kGeometry = QStringLiteral("window/geometry");
inline const QString kWindowState = QStringLiteral("window/state");
inline const QString kScenario = QStringLiteral("run/scenario");  // default: the first scenario
inline const QString kLanguage =
    QStringLiteral("view/language");                       // "zh" / "en"; default: system locale
inline const QString kDark = QStringLiteral("view/dark");  // default false
inline const QString kPresenter = QStringLiteral("view/presenter");  // default false
inline const QString kZoom = QStringLiteral("view/zoom");            // percent, default 100
// PlaybackBar::kSpeeds index, default PlaybackBar::kNormalSpeed (about a step a second)
inline const QString kSpeed = QStringLiteral("run/speed");
inline const QString kAutoPlay = QStringLiteral("run/autoPlay");  // default false
// the set-up and the lab's own lanes and tables (an observer, its copies); default false
inline const QString kShowInternals = QStringLiteral("view/showInternals");

// File → Open recent: the traces opened last, newest first, absolute paths;
// default none (RecentTraces::kMost at most)
inline const QString kRecentTraces = QStringLiteral("file/recentTraces");

// the first start's offer of the five-minute lesson was made; default false
inline const QString kFirstLessonOffered = QStringLiteral("start/firstLessonOffered");

}  // namespace idem::settings
