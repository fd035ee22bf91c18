// Both themes readable everywhere: text against its background reaches WCAG
// AA (4.5:1) on the picker's group headers, the playback buttons, the marked
// rows (changed, shown again, skipped, failed statements), the status pills
// and the verdict banners — measured on the pixels drawn where it can be.
#include "appearance.h"
#include "contrast.h"
#include "mainwindow.h"
#include "paginationview.h"
#include "playback.h"
#include "playbackbar.h"
#include "registry.h"
#include "scenariopicker.h"
#include "settings.h"
#include "statusdelegate.h"

#include <QApplication>
#include <QFile>
#include <QFontInfo>
#include <QHash>
#include <QImage>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace idem;

namespace {

// The contrast of what is drawn in a picture: its most frequent colour is the
// background, the colour farthest from it the text (or glyph).
double drawnContrast(const QImage& picture, QColor* background = nullptr) {
    const QImage image = picture.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, int> count;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) ++count[line[x]];
    }
    QRgb ground = 0;
    int most = -1;
    for (auto it = count.cbegin(); it != count.cend(); ++it) {
        if (it.value() > most) {
            most = it.value();
            ground = it.key();
        }
    }
    double best = 1;
    for (auto it = count.cbegin(); it != count.cend(); ++it)
        best = std::max(best, contrastRatio(QColor(it.key()), QColor(ground)));
    if (background)
        *background = QColor(ground);
    return best;
}

QString describe(const char* what, bool dark, double ratio) {
    return QStringLiteral("%1 (%2 theme): %3:1")
        .arg(QLatin1String(what), dark ? QStringLiteral("dark") : QStringLiteral("light"))
        .arg(ratio, 0, 'f', 2);
}

}  // namespace

class ThemesTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void toolBarsMoreButtonIsDrawnInTheThemesText();
    void aWindowOpensInTheRememberedTheme();
    void pickerHeadersAreReadable();
    void scrollBarHandlesAreFlatAndStandOut();
    void playbackButtonsAreReadable();
    void markedRowsAreReadable();
    void pillsAndBannersAreReadable();
};

// A window remembered dark opens so, and one remembered in presenter mode
// too: its widgets are built in that theme (not painted light and switched
// after), the picker's headers readable at once.
// The tool bars' "more" button (a bar too short for its buttons) is drawn in
// the palette's text colour, light on dark and dark on light. Building the
// window reads no picture file for it: reading one made Qt load every
// image-format plugin before the first paint. (First test of this program,
// so that nothing before it has loaded them.)
namespace {
bool imagePluginsLoaded() {
    QFile maps(QStringLiteral("/proc/self/maps"));
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains("/imageformats/");
}
// The mean lightness of the drawn (opaque) pixels of `icon`, or -1 if none.
int drawnLightness(const QIcon& icon) {
    const QImage image = icon.pixmap(32, 32).toImage();
    qint64 sum = 0;
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alpha() > 200) {
                sum += c.lightness();
                ++count;
            }
        }
    }
    return count > 0 ? int(sum / count) : -1;
}
}  // namespace

void ThemesTest::toolBarsMoreButtonIsDrawnInTheThemesText() {
    QSettings().clear();
    const bool loadedBefore = imagePluginsLoaded();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    if (!loadedBefore)
        QVERIFY(!imagePluginsLoaded());
    const QList<QToolButton*> more =
        w.findChildren<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
    QVERIFY(!more.isEmpty());
    for (const bool dark : {false, true}) {
        Appearance look;
        look.dark = dark;
        applyAppearance(look);
        for (QToolButton* button : more) {
            const int drawn = drawnLightness(button->icon());
            const int text = QApplication::palette().color(QPalette::ButtonText).lightness();
            QVERIFY2(drawn >= 0, "the button's icon is empty");
            QVERIFY2(std::abs(drawn - text) < 40,
                     qPrintable(QStringLiteral("%1 theme: icon lightness %2, text %3")
                                    .arg(dark ? "dark" : "light")
                                    .arg(drawn)
                                    .arg(text)));
        }
    }
    applyAppearance(Appearance{});
}

void ThemesTest::aWindowOpensInTheRememberedTheme() {
    QSettings settings;
    settings.clear();
    settings.setValue(settings::kDark, true);
    settings.setValue(settings::kLanguage, QStringLiteral("en"));
    {
        // No widget is told of a new style while the window is being built.
        struct CountStyleChanges : QObject {
            int changes = 0;
            bool eventFilter(QObject* o, QEvent* e) override {
                changes += e->type() == QEvent::StyleChange;
                return QObject::eventFilter(o, e);
            }
        } count;
        qApp->installEventFilter(&count);
        MainWindow w(true);
        qApp->removeEventFilter(&count);
        QCOMPARE(count.changes, 0);
        QVERIFY(currentAppearance().dark && !currentAppearance().presenter);
        QVERIFY(w.picker()->palette().color(QPalette::Window).lightness() < 100);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::processEvents();
        auto* table = w.picker()->findChild<QTableWidget*>();
        QVERIFY(table);
        QRect first = table->visualRect(table->model()->index(0, 0));
        first.setWidth(table->viewport()->width());
        QColor ground;
        const double ratio = drawnContrast(table->viewport()->grab(first).toImage(), &ground);
        QVERIFY2(ratio >= kMinContrast, qPrintable(describe("picker header", true, ratio)));
        QVERIFY(ground.lightness() < 128);
    }
    settings.setValue(settings::kPresenter, true);
    {
        MainWindow w(true);
        QVERIFY(currentAppearance().presenter);
        QVERIFY(QFontInfo(w.playbackBar()->font()).pixelSize() >= kPresenterPixels - 1);
        w.setTheme(false, false, 100);
    }
    settings.clear();
}

// A scroll bar's handle is one flat colour (drawn in a few rectangles, not
// Fusion's gradients and grip lines: cheap to paint at every step) that
// stands out from its track by at least 3:1, the contrast a part of a control
// needs, in both themes.
void ThemesTest::scrollBarHandlesAreFlatAndStandOut() {
    for (const bool dark : {false, true}) {
        Appearance look;
        look.dark = dark;
        applyAppearance(look);
        QScrollBar bar(Qt::Vertical);
        bar.setRange(0, 100);
        bar.setPageStep(20);
        bar.setValue(30);
        bar.resize(16, 240);
        const QImage image = bar.grab().toImage();
        QStyleOptionSlider option;
        option.initFrom(&bar);
        option.orientation = Qt::Vertical;
        option.minimum = 0;
        option.maximum = 100;
        option.pageStep = 20;
        option.sliderValue = option.sliderPosition = 30;
        option.subControls = QStyle::SC_All;
        const QRect handle = bar.style()->subControlRect(QStyle::CC_ScrollBar, &option,
                                                         QStyle::SC_ScrollBarSlider, &bar);
        const QRect track = bar.style()->subControlRect(QStyle::CC_ScrollBar, &option,
                                                        QStyle::SC_ScrollBarAddPage, &bar);
        QVERIFY(handle.height() > 20 && track.height() > 20);
        const int x = handle.center().x();
        const QColor fill = image.pixelColor(x, handle.center().y());
        for (int y = handle.top() + 6; y <= handle.bottom() - 6; ++y) {
            QVERIFY2(image.pixelColor(x, y) == fill,
                     qPrintable(describe("a handle drawn in more than one colour", dark, 0)));
        }
        const double ratio = contrastRatio(fill, image.pixelColor(x, track.center().y()));
        QVERIFY2(ratio >= 3.0, qPrintable(describe("handle on its track", dark, ratio)));
    }
    applyAppearance(Appearance{});
}

void ThemesTest::pickerHeadersAreReadable() {
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* table = w.picker()->findChild<QTableWidget*>();
    QVERIFY(table);
    // Light, dark and light again: a switch back must not keep the old colours.
    for (bool dark : {false, true, false, true}) {
        w.setTheme(dark, false, 100);
        QApplication::processEvents();
        int headers = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const QTableWidgetItem* item = table->item(row, 0);
            if (!item || !item->data(Qt::UserRole).toString().isEmpty())
                continue;
            ++headers;
            QRect r = table->visualRect(table->model()->index(row, 0));
            r.setWidth(table->viewport()->width());
            if (!table->viewport()->rect().contains(r))
                continue;
            QColor ground;
            const double ratio = drawnContrast(table->viewport()->grab(r).toImage(), &ground);
            QVERIFY2(ratio >= kMinContrast,
                     qPrintable(describe("picker header", dark, ratio) + " " + item->text()));
            // The header stands apart from the scenario rows.
            QVERIFY(ground != table->palette().color(QPalette::Base));
        }
        QCOMPARE(headers, 5);
    }
}

void ThemesTest::playbackButtonsAreReadable() {
    for (bool presenter : {false, true}) {
        for (bool dark : {false, true}) {
            MainWindow w(false);
            w.resize(1280, 720);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.setTheme(dark, presenter, 100);
            QApplication::processEvents();
            const QList<QToolButton*> buttons = w.playbackBar()->findChildren<QToolButton*>();
            QCOMPARE(buttons.size(), 5);
            for (QToolButton* b : buttons) {
                QVERIFY(b->isEnabled());
                const double ratio = drawnContrast(b->grab().toImage());
                QVERIFY2(ratio >= kMinContrast,
                         qPrintable(describe("playback button", dark, ratio) + " " +
                                    b->accessibleName()));
            }
        }
    }
}

void ThemesTest::markedRowsAreReadable() {
    for (bool dark : {false, true}) {
        MainWindow w(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setTheme(dark, false, 100);
        const QPalette p = QApplication::palette();
        const QColor text = p.color(QPalette::Text);
        // The rows the last step changed, from the flash to where it rests.
        for (double strength : {0.0, 0.5, 1.0}) {
            const double ratio =
                contrastRatio(text, StatusDelegate::changedBackground(p, strength));
            QVERIFY2(ratio >= kMinContrast, qPrintable(describe("changed row", dark, ratio)));
        }
        // Failed statements and lock waits in the SQL log.
        for (const QColor& mark : {QColor(0xf0, 0xa2, 0x02), QColor(0xd6, 0x30, 0x31)}) {
            const double ratio = contrastRatio(text, rowTint(p.color(QPalette::Base), mark));
            QVERIFY2(ratio >= kMinContrast, qPrintable(describe("SQL log mark", dark, ratio)));
        }
        // Pagination's rows shown again and skipped, as drawn.
        RunConfig c = defaultConfig(*findScenario("pagination"));
        c.variant = "offset";
        c.params.insert("inserts-per-page", "3");
        QString error;
        QVERIFY2(w.fire(c, &error), qPrintable(error));
        w.playback().toEnd();
        QApplication::processEvents();
        int marked = 0;
        for (QTreeWidget* tree : w.paginationView()->findChildren<QTreeWidget*>()) {
            for (int top = 0; top < tree->topLevelItemCount(); ++top) {
                QTreeWidgetItem* page = tree->topLevelItem(top);
                for (int i = 0; i < page->childCount(); ++i) {
                    QTreeWidgetItem* row = page->child(i);
                    if (row->background(0).style() == Qt::NoBrush)
                        continue;
                    ++marked;
                    const double ratio = contrastRatio(row->foreground(0).style() == Qt::NoBrush
                                                           ? tree->palette().color(QPalette::Text)
                                                           : row->foreground(0).color(),
                                                       row->background(0).color());
                    QVERIFY2(
                        ratio >= kMinContrast,
                        qPrintable(describe("pagination row", dark, ratio) + " " + row->text(0)));
                    tree->scrollToItem(row);
                    const QRect r = tree->visualItemRect(row);
                    if (tree->viewport()->rect().contains(r)) {
                        const double drawn = drawnContrast(tree->viewport()->grab(r).toImage());
                        QVERIFY2(drawn >= kMinContrast,
                                 qPrintable(describe("pagination row drawn", dark, drawn)));
                    }
                }
                if (page->foreground(1).style() != Qt::NoBrush) {
                    const double ratio =
                        contrastRatio(page->foreground(1).color(), p.color(QPalette::Base));
                    QVERIFY2(ratio >= kMinContrast,
                             qPrintable(describe("pagination note", dark, ratio)));
                }
            }
        }
        QVERIFY(marked > 0);
    }
}

void ThemesTest::pillsAndBannersAreReadable() {
    for (const char* status : {"PROCESSING", "PAYING", "SUCCESS", "FAILED", "PENDING"}) {
        const double ratio = contrastRatio(Qt::white, statusColor(status));
        QVERIFY2(ratio >= kMinContrast,
                 qPrintable(QStringLiteral("%1: %2").arg(status).arg(ratio)));
    }
    for (const char* verdict :
         {"exactly-once", "duplicated", "lost", "stuck", "inconsistent", "misanswered"}) {
        const double ratio = contrastRatio(Qt::white, verdictColor(verdict));
        QVERIFY2(ratio >= kMinContrast,
                 qPrintable(QStringLiteral("%1: %2").arg(verdict).arg(ratio)));
        // The same colour as text on either theme's panel, made readable.
        for (const QColor& ground : {QColor(0xef, 0xef, 0xef), QColor(0x2b, 0x2d, 0x30)})
            QVERIFY(contrastRatio(readableOn(verdictColor(verdict), ground), ground) >=
                    kMinContrast);
    }
}

QTEST_MAIN(ThemesTest)
#include "themes_test.moc"
