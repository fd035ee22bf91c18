// The top of the classroom stage (presenter mode): the verdict as a banner
// across the window, and the fire panel's settings folded into one line that
// a button unfolds into the side panel again. The line is a widget of its
// own, placed beside the page tabs: one row of the screen saved for the
// diagrams.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace idem {

class StageHeader : public QWidget {
    Q_OBJECT
public:
    explicit StageHeader(QWidget* parent = nullptr);
    void setVerdict(const QString& text, const QColor& background, const QColor& foreground);
    // What a screen reader says of the banner, and its tooltip: the outcome
    // panel's description of the verdict (empty while it is withheld).
    void setVerdictDescription(const QString& description);
    // A monitoring alert the run raised so far, as a red banner over the
    // stage (it is not the verdict: shown even while a lesson hides that);
    // empty: none.
    void setAlert(const QString& text);
    QString alertText() const;
    bool hasAlert() const { return !alertText().isEmpty(); }
    // The verdict banner (presenter mode; the outcome panel shows it otherwise).
    void setVerdictShown(bool shown);
    bool isVerdictShown() const;
    void setSettings(const QString& summary);
    void setExpanded(bool expanded);
    QString verdictText() const;
    QString settingsText() const;
    QPushButton* expandButton() const { return expand_; }
    // The button and the folded settings, on one line.
    QWidget* settingsLine() const { return line_; }

signals:
    void expandToggled(bool expanded);
    void alertChanged(bool shown);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    QLabel* verdict_;
    QLabel* alert_;
    QWidget* line_;
    QLabel* settings_;
    QPushButton* expand_;
};

}  // namespace idem
