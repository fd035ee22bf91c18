// Every control a person operates has an accessible name, in both
// languages: what a screen reader says and what an automated UI test finds
// it by. Asked of Qt's accessibility interfaces, as a screen reader asks.
#include "advisordialog.h"
#include "firepanel.h"
#include "mainwindow.h"
#include "names.h"
#include "outcomepanel.h"
#include "playback.h"
#include "registry.h"
#include "scenariopicker.h"
#include "sequenceview.h"
#include "settings.h"
#include "statemachineview.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsView>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace idem;

namespace {

bool insideOf(const QWidget* w, const char* className) {
    for (const QObject* p = w->parent(); p; p = p->parent()) {
        if (p->inherits(className))
            return true;
    }
    return false;
}

// A control a person works with the mouse or the keyboard. The parts Qt
// builds inside a control (a spin box's line edit, a combo box's popup, a
// view's header and scroll bars) are named by the control itself.
bool operable(const QWidget* w) {
    if (insideOf(w, "QComboBox") || insideOf(w, "QAbstractSpinBox") ||
        qobject_cast<const QMenu*>(w))
        return false;
    if (qobject_cast<const QScrollBar*>(w) || qobject_cast<const QHeaderView*>(w) ||
        w->inherits("QTableCornerButton")) {
        return false;
    }
    // A scroll area's viewport: the area itself is the control.
    if (auto* area = qobject_cast<const QAbstractScrollArea*>(w->parentWidget());
        area && area->viewport() == w) {
        return false;
    }
    // The scroll arrows of a tab bar, named by Qt.
    if (qobject_cast<const QAbstractButton*>(w) && qobject_cast<const QTabBar*>(w->parentWidget()))
        return false;
    return qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QAbstractSlider*>(w) ||
           qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QComboBox*>(w) ||
           qobject_cast<const QLineEdit*>(w) || qobject_cast<const QAbstractItemView*>(w) ||
           qobject_cast<const QTabWidget*>(w) || (w->focusPolicy() & Qt::TabFocus);
}

QString accessibleName(QWidget* w) {
    QAccessibleInterface* face = QAccessible::queryAccessibleInterface(w);
    return face ? face->text(QAccessible::Name).trimmed() : QString();
}

QString path(const QWidget* w) {
    QStringList parts;
    for (const QObject* o = w; o; o = o->parent()) {
        parts.prepend(QLatin1String(o->metaObject()->className()) +
                      (o->objectName().isEmpty() ? QString() : QLatin1Char('#') + o->objectName()));
    }
    return parts.join(QStringLiteral(" > "));
}

// Operable widgets under root without a name: "path" per line.
QStringList nameless(QWidget* root, int* checked) {
    QStringList out;
    QList<QWidget*> all = root->findChildren<QWidget*>();
    all.prepend(root);
    for (QWidget* w : all) {
        if (!operable(w))
            continue;
        ++*checked;
        if (accessibleName(w).isEmpty())
            out << path(w);
    }
    return out;
}

}  // namespace

class AccessibilityTest : public QObject {
    Q_OBJECT
    QTemporaryDir settings_;

private slots:
    void initTestCase();
    void everyControlHasAName_data();
    void everyControlHasAName();
    void namesFollowTheLanguage();
    void qtsDockButtonsFollowTheLanguage();
    void diagramsAreNamedFromTheStart_data();
    void diagramsAreNamedFromTheStart();
    void theVerdictIsReachedWithTabAndSaysWhatTheDatabaseShows_data();
    void theVerdictIsReachedWithTabAndSaysWhatTheDatabaseShows();
};

void AccessibilityTest::initTestCase() {
    QApplication::setApplicationName("idemlab-test");
    // The windows that remember (the language they start in) remember here.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_.path());
}

void AccessibilityTest::everyControlHasAName_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("scenario");
    QTest::newRow("en payment") << "en"
                                << "payment-callback";
    QTest::newRow("zh payment") << "zh"
                                << "payment-callback";
    QTest::newRow("en pagination") << "en"
                                   << "pagination";
    QTest::newRow("zh order") << "zh"
                              << "order-create";
}

void AccessibilityTest::everyControlHasAName() {
    QFETCH(QString, language);
    QFETCH(QString, scenario);
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setLanguage(language);
    QString error;
    QVERIFY2(w.fire(defaultConfig(*findScenario(scenario)), &error), qPrintable(error));
    int checked = 0;
    QStringList missing = nameless(&w, &checked);
    AdvisorDialog advisor(&w);
    missing << nameless(&advisor, &checked);
    QVERIFY2(checked > 30, qPrintable(QString::number(checked)));
    for (const QString& m : std::as_const(missing))
        qWarning("no accessible name: %s", qPrintable(m));
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("%1 without a name").arg(missing.size())));
}

void AccessibilityTest::namesFollowTheLanguage() {
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY(w.fire(defaultConfig(*findScenario("payment-callback")), &error));
    auto names = [&w] {
        QMap<QWidget*, QString> out;
        for (QWidget* c : w.findChildren<QWidget*>()) {
            if (operable(c) && !c->accessibleName().isEmpty())
                out.insert(c, c->accessibleName());
        }
        return out;
    };
    w.setLanguage("en");
    const QMap<QWidget*, QString> english = names();
    w.setLanguage("zh");
    const QMap<QWidget*, QString> chinese = names();
    QVERIFY(english.size() > 10);
    QCOMPARE(chinese.size(), english.size());
    // A name set in code is a translated text: in Chinese it is another text.
    QStringList same;
    for (auto it = english.cbegin(); it != english.cend(); ++it) {
        if (chinese.value(it.key()) == it.value())
            same << path(it.key()) + QStringLiteral(": ") + it.value();
    }
    for (const QString& m : std::as_const(same)) qWarning("not translated: %s", qPrintable(m));
    QVERIFY2(same.isEmpty(),
             qPrintable(QStringLiteral("%1 names not translated").arg(same.size())));
}

// The float and close buttons Qt puts on each dock, named and described in
// the language chosen later too (Qt's own translations).
void AccessibilityTest::qtsDockButtonsFollowTheLanguage() {
    MainWindow w(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setLanguage("en");
    w.setLanguage("zh");
    int buttons = 0;
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
        for (const char* object : {"qt_dockwidget_floatbutton", "qt_dockwidget_closebutton"}) {
            auto* button = dock->findChild<QAbstractButton*>(QLatin1String(object));
            if (!button)
                continue;
            ++buttons;
            const QRegularExpression han(QStringLiteral("\\p{Han}"));
            QVERIFY2(han.match(button->accessibleName()).hasMatch(),
                     qPrintable(button->accessibleName()));
            QVERIFY2(han.match(button->accessibleDescription()).hasMatch(),
                     qPrintable(button->accessibleDescription()));
        }
    }
    QVERIFY(buttons >= 4);
    w.setLanguage("en");
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
        if (auto* b = dock->findChild<QAbstractButton*>("qt_dockwidget_closebutton"))
            QCOMPARE(b->accessibleDescription(), QStringLiteral("Closes the dock widget"));
    }
}

void AccessibilityTest::diagramsAreNamedFromTheStart_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("sequence");
    QTest::newRow("en") << "en"
                        << "State diagram"
                        << "Sequence diagram";
    QTest::newRow("zh") << "zh"
                        << "状态图"
                        << "时序图";
}

// A window started in a language (no switch since): each diagram's view has
// its name, as a screen reader asks for it.
void AccessibilityTest::diagramsAreNamedFromTheStart() {
    QFETCH(QString, language);
    QFETCH(QString, state);
    QFETCH(QString, sequence);
    QSettings().setValue(settings::kLanguage, language);
    QSettings().setValue(settings::kFirstLessonOffered, true);
    MainWindow w(true);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.language(), language);
    const auto names = [](QWidget* diagram) {
        QStringList out;
        for (QGraphicsView* view : diagram->findChildren<QGraphicsView*>())
            out << accessibleName(view);
        return out;
    };
    QCOMPARE(names(w.stateView()), QStringList{state});
    const QStringList lanes = names(w.sequenceView());
    QCOMPARE(lanes.size(), 2);
    QVERIFY2(lanes.contains(sequence), qPrintable(lanes.join(", ")));
    QVERIFY2(!lanes.contains(QString()), qPrintable(lanes.join(", ")));
    QSettings().clear();
}

void AccessibilityTest::theVerdictIsReachedWithTabAndSaysWhatTheDatabaseShows_data() {
    QTest::addColumn<bool>("presenter");
    QTest::addColumn<QString>("shown");  // the verdict's widget
    QTest::newRow("outcome panel") << false << "verdict";
    QTest::newRow("presenter banner") << true << "verdictBanner";
}

// The verdict is one of the places Tab stops at, and what a screen reader
// says of it is the verdict, its meaning and the counts it was read from.
void AccessibilityTest::theVerdictIsReachedWithTabAndSaysWhatTheDatabaseShows() {
    QFETCH(bool, presenter);
    QFETCH(QString, shown);
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    w.setLanguage("en");
    w.setTheme(false, presenter, 100);
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.variant = "none";
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().seek(w.playback().length());
    QCoreApplication::processEvents();
    QCOMPARE(w.outcome()->verdictId(), QStringLiteral("duplicated"));
    w.picker()->setFocus(Qt::TabFocusReason);
    QStringList passed;
    for (int i = 0; i < 300; ++i) {
        QWidget* focus = QApplication::focusWidget();
        if (!focus || focus->objectName() == shown)
            break;
        passed << path(focus);
        QTest::keyClick(focus, Qt::Key_Tab);
    }
    QWidget* verdict = QApplication::focusWidget();
    QVERIFY2(verdict && verdict->objectName() == shown, qPrintable(passed.mid(0, 60).join('\n')));
    QAccessibleInterface* face = QAccessible::queryAccessibleInterface(verdict);
    QVERIFY(face);
    const QString said = face->text(QAccessible::Description);
    QVERIFY2(said.startsWith("Verdict: " + verdictName("duplicated") + ". "), qPrintable(said));
    const Summary& s = w.playback().finalSummary();
    QVERIFY(!s.expectedEffects.isEmpty());
    for (auto it = s.expectedEffects.cbegin(); it != s.expectedEffects.cend(); ++it) {
        const qint64 got = s.effects.value(it.key());
        QVERIFY(got > 1);
        const QString count = QStringLiteral("the effect “%1” happened %2 times, expected %3")
                                  .arg(effectName(it.key()))
                                  .arg(got)
                                  .arg(it.value());
        QVERIFY2(said.contains(count), qPrintable(said));
    }
    QVERIFY2(said.endsWith('.'), qPrintable(said));
    // In Chinese too, counts included.
    w.setLanguage("zh");
    const QString chinese = w.outcome()->verdictDescription();
    QVERIFY2(chinese.contains(verdictName("duplicated")), qPrintable(chinese));
    QVERIFY2(chinese.contains(QString::number(s.effects.cbegin().value())), qPrintable(chinese));
    QVERIFY2(!chinese.contains("effect"), qPrintable(chinese));
}

QTEST_MAIN(AccessibilityTest)
#include "accessibility_test.moc"
