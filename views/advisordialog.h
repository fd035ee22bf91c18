// The design advisor (设计时先问这些问题): the article's six questions as a
// short form; the answers pick a combination of techniques and can open the
// matching scenario. Idempotency is designed in, not patched on (误区二).
#pragma once

#include <QDialog>
#include <QJsonObject>
#include <QList>
#include <QMap>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QPushButton;

namespace idem {

class AdvisorDialog : public QDialog {
    Q_OBJECT
public:
    explicit AdvisorDialog(QWidget* parent = nullptr);
    // The advice for the current answers: the first rule whose answers all match.
    QJsonObject currentRule() const;
    // The same for answers given as question id -> option id.
    static QJsonObject ruleFor(const QMap<QString, QString>& answers);
    QComboBox* question(int index) const { return questions_.value(index); }

signals:
    void openScenario(const QString& scenario, const QString& variant);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void updateAdvice();

    QFormLayout* form_;
    QList<QComboBox*> questions_;
    QList<QLabel*> labels_;
    QLabel* advice_;
    QDialogButtonBox* buttons_;
    QPushButton* open_;
};

}  // namespace idem
