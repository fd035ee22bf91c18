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
    void setSettings(const QString& summary);
    void setExpanded(bool expanded);
    QString verdictText() const;
    QString settingsText() const;
    QPushButton* expandButton() const { return expand_; }
    // The button and the folded settings, on one line.
    QWidget* settingsLine() const { return line_; }

signals:
    void expandToggled(bool expanded);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    QLabel* verdict_;
    QWidget* line_;
    QLabel* settings_;
    QPushButton* expand_;
};

}  // namespace idem
