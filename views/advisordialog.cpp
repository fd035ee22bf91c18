#include "advisordialog.h"

#include "texts.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace idem {

AdvisorDialog::AdvisorDialog(QWidget* parent)
    : QDialog(parent),
      form_(new QFormLayout),
      advice_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Close, this)),
      open_(new QPushButton(this)) {
    auto* layout = new QVBoxLayout(this);
    // Each question on its own line above its answers: long questions wrap.
    form_->setRowWrapPolicy(QFormLayout::WrapAllRows);
    layout->addLayout(form_);
    advice_->setWordWrap(true);
    advice_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    advice_->setFrameShape(QFrame::StyledPanel);
    advice_->setMargin(8);
    advice_->setMinimumHeight(advice_->fontMetrics().height() * 6);
    layout->addWidget(advice_, 1);
    buttons_->addButton(open_, QDialogButtonBox::AcceptRole);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(open_, &QPushButton::clicked, this, [this] {
        const QJsonObject rule = currentRule();
        emit openScenario(rule.value("scenario").toString(), rule.value("variant").toString());
        accept();
    });
    const QJsonArray questions = Texts::instance().advisor().value("questions").toArray();
    for (int i = 0; i < questions.size(); ++i) {
        auto* label = new QLabel(this);
        label->setWordWrap(false);
        auto* box = new QComboBox(this);
        for (const QJsonValue& option : questions[i].toObject().value("options").toArray()) {
            box->addItem(QString(), option.toObject().value("id").toString());
        }
        connect(box, &QComboBox::currentIndexChanged, this, &AdvisorDialog::updateAdvice);
        form_->addRow(label, box);
        labels_ << label;
        questions_ << box;
    }
    setMinimumWidth(fontMetrics().averageCharWidth() * 90);
    rebuild();
}

QJsonObject AdvisorDialog::currentRule() const {
    const QJsonArray questions = Texts::instance().advisor().value("questions").toArray();
    QMap<QString, QString> answers;
    for (int i = 0; i < questions.size(); ++i) {
        answers.insert(questions[i].toObject().value("id").toString(),
                       questions_[i]->currentData().toString());
    }
    return ruleFor(answers);
}

QJsonObject AdvisorDialog::ruleFor(const QMap<QString, QString>& answers) {
    for (const QJsonValue& r : Texts::instance().advisor().value("rules").toArray()) {
        const QJsonObject when = r.toObject().value("when").toObject();
        bool matches = true;
        for (auto it = when.begin(); it != when.end() && matches; ++it)
            matches = answers.value(it.key()) == it.value().toString();
        if (matches)
            return r.toObject();
    }
    return {};
}

void AdvisorDialog::rebuild() {
    setWindowTitle(tr("Design advisor — ask these questions first"));
    open_->setText(tr("&Open the matching scenario"));
    // Qt's own button text is not translated unless Qt's catalogue is loaded.
    buttons_->button(QDialogButtonBox::Close)->setText(tr("Close"));
    const QJsonArray questions = Texts::instance().advisor().value("questions").toArray();
    for (int i = 0; i < questions.size(); ++i) {
        const QJsonObject q = questions[i].toObject();
        labels_[i]->setText(QStringLiteral("%1. %2").arg(i + 1).arg(Texts::pick(q.value("text"))));
        const QJsonArray options = q.value("options").toArray();
        const QSignalBlocker block(questions_[i]);
        for (int o = 0; o < options.size(); ++o) {
            questions_[i]->setItemText(o, Texts::pick(options[o].toObject().value("text")));
        }
    }
    updateAdvice();
}

void AdvisorDialog::updateAdvice() {
    const QJsonObject rule = currentRule();
    const QString scenario = rule.value("scenario").toString();
    const QString title = Texts::instance().get(scenario, "title");
    advice_->setText(tr("<p>%1</p><p><b>Try it:</b> %2 — %3</p>")
                         .arg(Texts::pick(rule.value("advice")).toHtmlEscaped(),
                              title.toHtmlEscaped(),
                              rule.value("variant").toString().toHtmlEscaped()));
    open_->setEnabled(!scenario.isEmpty());
}

void AdvisorDialog::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    QDialog::changeEvent(event);
}

}  // namespace idem
