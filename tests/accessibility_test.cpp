// Every control a person operates has an accessible name, in both
// languages: what a screen reader says and what an automated UI test finds
// it by. Asked of Qt's accessibility interfaces, as a screen reader asks.
#include "advisordialog.h"
#include "mainwindow.h"
#include "registry.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
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
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void everyControlHasAName_data();
    void everyControlHasAName();
    void namesFollowTheLanguage();
    void qtsDockButtonsFollowTheLanguage();
};

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

QTEST_MAIN(AccessibilityTest)
#include "accessibility_test.moc"
