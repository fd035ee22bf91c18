// The keyboard model, rule by rule, driven with real key events off screen:
// playback keys act wherever the focus is unless a field is being edited, Tab
// moves between regions, the picker loads only on Enter, tabs have keys,
// buttons and check boxes answer Enter and Space, mnemonics are unique.
#include "advisordialog.h"
#include "compareview.h"
#include "experimentview.h"
#include "firepanel.h"
#include "keysoverlay.h"
#include "mainwindow.h"
#include "outcomepanel.h"
#include "paginationview.h"
#include "playback.h"
#include "playbackbar.h"
#include "playbackkeys.h"
#include "registry.h"
#include "runcontroller.h"
#include "scenariopicker.h"
#include "workbenchview.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace idem;

namespace {

// A window on screen with the keyboard focus, a scenario loaded.
struct Window {
    MainWindow w{false};
    explicit Window(const QString& scenario = QStringLiteral("payment-callback")) {
        w.resize(1400, 900);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        RunConfig c = defaultConfig(*findScenario(scenario));
        QString error;
        QVERIFY2(w.fire(c, &error), qPrintable(error));
    }
};

void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QWidget* target = QApplication::focusWidget();
    QVERIFY(target);
    QTest::keyClick(target, Qt::Key(k), mods);
    // A key that starts work in the background (F5, Enter on a scenario, Compare):
    // its result is on screen before the next check.
    if (auto* w = qobject_cast<MainWindow*>(target->window()))
        w->jobs()->finishNow();
}

void typeText(const QString& text) {
    QTest::keyClicks(QApplication::focusWidget(), text);
}

// The letter after a single '&', upper case; empty when there is none.
QString mnemonic(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;
            continue;
        }
        return text[i + 1].toUpper();
    }
    return {};
}

// Every mnemonic a window offers at once: the menu bar's titles and the
// visible buttons, buddy labels, group boxes and tab bars.
QStringList windowMnemonics(QWidget* window, QStringList* owners) {
    QStringList texts;
    if (auto* main = qobject_cast<MainWindow*>(window)) {
        for (QAction* a : main->menuBar()->actions()) texts << a->text();
    }
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (!w->isVisible() || w->window() != window)
            continue;
        if (auto* b = qobject_cast<QAbstractButton*>(w))
            texts << b->text();
        if (auto* l = qobject_cast<QLabel*>(w); l && l->buddy())
            texts << l->text();
        if (auto* g = qobject_cast<QGroupBox*>(w))
            texts << g->title();
        if (auto* bar = qobject_cast<QTabBar*>(w)) {
            for (int i = 0; i < bar->count(); ++i) {
                if (bar->isTabVisible(i))
                    texts << bar->tabText(i);
            }
        }
    }
    QStringList letters;
    for (const QString& t : std::as_const(texts)) {
        const QString m = mnemonic(t);
        if (!m.isEmpty()) {
            letters << m;
            *owners << t;
        }
    }
    return letters;
}

QString duplicates(const QStringList& letters, const QStringList& owners) {
    QStringList clashes;
    for (qsizetype i = 0; i < letters.size(); ++i) {
        for (qsizetype j = i + 1; j < letters.size(); ++j) {
            if (letters[i] == letters[j])
                clashes << owners[i] + QStringLiteral(" / ") + owners[j];
        }
    }
    return clashes.join(QStringLiteral("; "));
}

}  // namespace

class KeyboardTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void playbackKeysWorkFromASpinBox();
    void escapeAndEnterEndAnEdit();
    void playbackKeysWorkFromAComboBoxAndATable();
    void tabLeavesThePickerWithoutChangingTheScenario();
    void arrowsInThePickerOnlyHighlightEnterLoads();
    void groupHeadersAreNotSelectable();
    void tabsHaveKeys();
    void ctrlKTogglesCompare();
    void f5FromCompareFiresAndShowsLive();
    void experimentWorksFromTheKeyboard();
    void enterPressesTheFocusedButton();
    void questionMarkShowsTheKeys();
    void mnemonicsAreUnique_data();
    void mnemonicsAreUnique();
};

void KeyboardTest::playbackKeysWorkFromASpinBox() {
    Window win;
    MainWindow& w = win.w;
    QSpinBox* duplicates = w.firePanel()->duplicatesBox();
    duplicates->setFocus(Qt::TabFocusReason);
    QCOMPARE(w.keys()->editing(), nullptr);
    const int at = w.playback().position();
    key(Qt::Key_Right);
    QCOMPARE(w.playback().position(), at + 1);
    key(Qt::Key_PageDown);
    QCOMPARE(w.playback().position(), at + 2);
    key(Qt::Key_Left);
    QCOMPARE(w.playback().position(), at + 1);
    key(Qt::Key_End);
    QCOMPARE(w.playback().position(), w.playback().length());
    key(Qt::Key_Home);
    QCOMPARE(w.playback().position(), 0);
    key(Qt::Key_Space);
    QVERIFY(w.playbackBar()->isPlaying());
    key(Qt::Key_Space);
    QVERIFY(!w.playbackBar()->isPlaying());
    QCOMPARE(duplicates->value(), defaultConfig(*findScenario("payment-callback")).duplicates);
}

void KeyboardTest::escapeAndEnterEndAnEdit() {
    Window win;
    MainWindow& w = win.w;
    QSpinBox* duplicates = w.firePanel()->duplicatesBox();
    duplicates->setFocus(Qt::TabFocusReason);
    duplicates->selectAll();
    typeText(QStringLiteral("3"));
    QCOMPARE(w.keys()->editing(), duplicates);
    const int at = w.playback().position();
    // While the number is being typed, the arrows move the text cursor.
    key(Qt::Key_Left);
    key(Qt::Key_Home);
    key(Qt::Key_End);
    QCOMPARE(w.playback().position(), at);
    key(Qt::Key_Escape);
    QCOMPARE(w.keys()->editing(), nullptr);
    key(Qt::Key_Right);
    QCOMPARE(w.playback().position(), at + 1);
    // Enter also ends the edit (and keeps the number).
    duplicates->selectAll();
    typeText(QStringLiteral("1"));
    QCOMPARE(w.keys()->editing(), duplicates);
    key(Qt::Key_Return);
    QCOMPARE(w.keys()->editing(), nullptr);
    QCOMPARE(duplicates->value(), 1);
    key(Qt::Key_Right);
    QCOMPARE(w.playback().position(), at + 2);
    // The crash attempt box too.
    QSpinBox* crashAttempt = w.firePanel()->findChild<QSpinBox*>("crashAttempt");
    QVERIFY(crashAttempt);
    crashAttempt->setEnabled(true);
    crashAttempt->setFocus(Qt::TabFocusReason);
    key(Qt::Key_Right);
    QCOMPARE(w.playback().position(), at + 3);
}

void KeyboardTest::playbackKeysWorkFromAComboBoxAndATable() {
    Window win;
    MainWindow& w = win.w;
    QComboBox* variant = w.firePanel()->variantBox();
    const int chosen = variant->currentIndex();
    variant->setFocus(Qt::TabFocusReason);
    const int at = w.playback().position();
    key(Qt::Key_PageDown);
    key(Qt::Key_Right);
    QCOMPARE(w.playback().position(), at + 2);
    QCOMPARE(variant->currentIndex(), chosen);
    QTableWidget* picker = w.picker()->table();
    picker->setFocus(Qt::TabFocusReason);
    QVERIFY(picker->currentIndex().isValid());
    key(Qt::Key_Right);
    key(Qt::Key_End);
    QCOMPARE(w.playback().position(), w.playback().length());
    // Space plays from the table too: its rows draw no check box for Space
    // to tick, though a table's items carry the flag for one.
    key(Qt::Key_Home);
    key(Qt::Key_Space);
    QVERIFY(w.playbackBar()->isPlaying());
    key(Qt::Key_Space);
    QVERIFY(!w.playbackBar()->isPlaying());
}

void KeyboardTest::tabLeavesThePickerWithoutChangingTheScenario() {
    Window win;
    MainWindow& w = win.w;
    QTableWidget* picker = w.picker()->table();
    picker->setFocus(Qt::TabFocusReason);
    const QString scenario = w.playback().config().scenario;
    const int row = picker->currentRow();
    key(Qt::Key_Tab);
    QVERIFY(!picker->hasFocus());
    QCOMPARE(picker->currentRow(), row);
    QCOMPARE(w.playback().config().scenario, scenario);
    QCOMPARE(w.picker()->currentScenario(), scenario);
    // The fire panel's settings are still those of the run.
    QCOMPARE(w.firePanel()->config().scenario, scenario);
}

void KeyboardTest::arrowsInThePickerOnlyHighlightEnterLoads() {
    Window win("order-create");
    MainWindow& w = win.w;
    QTableWidget* picker = w.picker()->table();
    picker->setFocus(Qt::TabFocusReason);
    key(Qt::Key_Down);
    QCOMPARE(w.picker()->currentScenario(), QStringLiteral("payment-callback"));
    QCOMPARE(w.playback().config().scenario, QStringLiteral("order-create"));
    key(Qt::Key_Return);
    QCOMPARE(w.playback().config().scenario, QStringLiteral("payment-callback"));
    QCOMPARE(w.firePanel()->config().scenario, QStringLiteral("payment-callback"));
}

void KeyboardTest::groupHeadersAreNotSelectable() {
    Window win("order-create");
    QTableWidget* picker = win.w.picker()->table();
    int headers = 0;
    for (int row = 0; row < picker->rowCount(); ++row) {
        const QTableWidgetItem* item = picker->item(row, 0);
        if (item->data(Qt::UserRole).toString().isEmpty()) {
            ++headers;
            QVERIFY(!(item->flags() & Qt::ItemIsSelectable));
            QVERIFY(!(item->flags() & Qt::ItemIsEnabled));
        }
    }
    QCOMPARE(headers, 5);
    // Up from the first scenario does not land on its group's header.
    picker->setFocus(Qt::TabFocusReason);
    key(Qt::Key_Up);
    QCOMPARE(win.w.picker()->currentScenario(), QStringLiteral("order-create"));
}

void KeyboardTest::tabsHaveKeys() {
    Window win;
    MainWindow& w = win.w;
    key(Qt::Key_2, Qt::AltModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.compareView());
    key(Qt::Key_1, Qt::AltModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.liveView());
    key(Qt::Key_4, Qt::AltModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.experimentView());
    key(Qt::Key_3, Qt::AltModifier);  // pagination is not this scenario's: nothing happens
    QCOMPARE(w.tabs()->currentWidget(), w.experimentView());
    key(Qt::Key_5, Qt::AltModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.workbenchView());
    key(Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.experimentView());
    key(Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.workbenchView());
    key(Qt::Key_PageDown, Qt::ControlModifier);  // wraps round, skipping the hidden tab
    QCOMPARE(w.tabs()->currentWidget(), w.liveView());
    key(Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.workbenchView());
    key(Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.experimentView());
    key(Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.compareView());
}

void KeyboardTest::ctrlKTogglesCompare() {
    Window win;
    MainWindow& w = win.w;
    key(Qt::Key_K, Qt::ControlModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.compareView());
    QVERIFY(!w.compareView()->outcome(0)->verdictId().isEmpty());
    key(Qt::Key_K, Qt::ControlModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.liveView());
}

void KeyboardTest::f5FromCompareFiresAndShowsLive() {
    Window win;
    MainWindow& w = win.w;
    key(Qt::Key_2, Qt::AltModifier);
    QCOMPARE(w.tabs()->currentWidget(), w.compareView());
    // Compare's page has no run to play: Space there is not the hidden run's.
    const int at = w.playback().position();
    key(Qt::Key_Space);
    QVERIFY(!w.playbackBar()->isPlaying());
    QCOMPARE(w.playback().position(), at);
    QSignalSpy loaded(&w.playback(), &Playback::loaded);
    key(Qt::Key_F5);
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(w.tabs()->currentWidget(), w.liveView());
}

void KeyboardTest::experimentWorksFromTheKeyboard() {
    Window win("order-create");
    MainWindow& w = win.w;
    key(Qt::Key_4, Qt::AltModifier);
    ExperimentView* experiment = w.experimentView();
    experiment->intentsBox()->setValue(10);
    auto* list = experiment->findChild<QListWidget*>();
    QVERIFY(list);
    // Alt+4 puts the focus on the page's first control, its variant list.
    QTRY_COMPARE(QApplication::focusWidget(), list);
    list->setCurrentRow(0);
    QCOMPARE(list->item(0)->checkState(), Qt::Checked);
    const int at = w.playback().position();
    key(Qt::Key_Space);
    QCOMPARE(list->item(0)->checkState(), Qt::Unchecked);
    QVERIFY(!w.playbackBar()->isPlaying());
    QCOMPARE(w.playback().position(), at);
    key(Qt::Key_Space);
    QCOMPARE(list->item(0)->checkState(), Qt::Checked);
    // Tab leaves the list; Tab again reaches the start button; Enter starts.
    key(Qt::Key_Tab);
    QVERIFY(!list->hasFocus());
    QPushButton* start = nullptr;
    for (int i = 0; i < 4 && !start; ++i) {
        start = qobject_cast<QPushButton*>(QApplication::focusWidget());
        if (!start)
            key(Qt::Key_Tab);
    }
    QVERIFY(start);
    QSignalSpy finished(experiment, &ExperimentView::finished);
    key(Qt::Key_Return);
    QVERIFY(finished.wait(120'000));
    QVERIFY(!experiment->results().isEmpty());
}

void KeyboardTest::enterPressesTheFocusedButton() {
    Window win;
    MainWindow& w = win.w;
    QPushButton* fire = w.firePanel()->fireButton();
    fire->setFocus(Qt::TabFocusReason);
    QSignalSpy loaded(&w.playback(), &Playback::loaded);
    key(Qt::Key_Return);
    QTRY_COMPARE(loaded.count(), 1);
    // Space presses it too: the button is what has the focus.
    key(Qt::Key_Space);
    QTRY_COMPARE(loaded.count(), 2);
    QVERIFY(!w.playbackBar()->isPlaying());
}

void KeyboardTest::questionMarkShowsTheKeys() {
    Window win;
    MainWindow& w = win.w;
    auto* overlay = w.findChild<KeysOverlay*>();
    QVERIFY(overlay);
    QVERIFY(!overlay->isVisible());
    key(Qt::Key_Question);
    QVERIFY(overlay->isVisible());
    QVERIFY(KeysOverlay::keyTable().contains("Alt+1"));
    key(Qt::Key_Escape);
    QVERIFY(!overlay->isVisible());
    QAction* help = w.action("keys");
    QVERIFY(help);
    QVERIFY(w.menuBar()->findChild<QMenu*>("help")->actions().contains(help));
}

void KeyboardTest::mnemonicsAreUnique_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << "en";
    QTest::newRow("zh") << "zh";
}

void KeyboardTest::mnemonicsAreUnique() {
    QFETCH(QString, language);
    Window win("pagination");
    MainWindow& w = win.w;
    w.setLanguage(language);
    QCOMPARE(w.menuBar()->actions().first()->text(),
             language == "zh" ? QString("文件(&F)") : QString("&File"));
    QCOMPARE(w.firePanel()->findChild<QLabel*>("variantLabel")->text(),
             language == "zh" ? QString("方案(&N)") : QString("Varia&nt"));
    int checked = 0;
    // The window with each of its pages showing.
    for (int tab = 0; tab < w.tabs()->count(); ++tab) {
        if (!w.tabs()->isTabVisible(tab))
            continue;
        w.tabs()->setCurrentIndex(tab);
        QStringList owners;
        const QStringList letters = windowMnemonics(&w, &owners);
        QVERIFY2(duplicates(letters, owners).isEmpty(), qPrintable(duplicates(letters, owners)));
        QVERIFY(letters.size() >= 10);
        ++checked;
    }
    QCOMPARE(checked, 5);
    // Each menu among its own items.
    for (QMenu* menu : w.menuBar()->findChildren<QMenu*>()) {
        QStringList letters, owners;
        for (QAction* a : menu->actions()) {
            const QString m = mnemonic(a->text());
            if (!a->isSeparator() && a->isVisible() && !m.isEmpty()) {
                letters << m;
                owners << a->text();
            }
        }
        QVERIFY2(duplicates(letters, owners).isEmpty(), qPrintable(duplicates(letters, owners)));
    }
    // Dialogs are windows of their own.
    AdvisorDialog advisor(&w);
    advisor.show();
    QStringList owners;
    const QStringList letters = windowMnemonics(&advisor, &owners);
    QVERIFY2(duplicates(letters, owners).isEmpty(), qPrintable(duplicates(letters, owners)));
    w.setLanguage("en");
}

QTEST_MAIN(KeyboardTest)
#include "keyboard_test.moc"
