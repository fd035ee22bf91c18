// The six verdicts explained, for a student alone as much as for a class:
// what each means, what the database shows when it is given, and in which
// order the worst wins. One sentence per verdict for tooltips, and the whole
// list as a dialog (Help → The six verdicts).
#pragma once

#include <QDialog>

class QLabel;

namespace idem {

// What a verdict means, in the installed language; empty for an unknown id.
QString verdictMeaning(const QString& verdict);

class VerdictGlossary : public QDialog {
    Q_OBJECT
public:
    explicit VerdictGlossary(QWidget* parent = nullptr);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    QLabel* text_;
};

}  // namespace idem
