// The teaching texts (resources/explanations/*.json) in the current
// language, and the language itself, which the user can switch while running.
#pragma once

#include <QJsonObject>
#include <QString>

namespace idem {

enum class Language { Chinese, English };

Language currentLanguage();
void setCurrentLanguage(Language language);
QString languageCode(Language language);  // "zh" or "en"

class Texts {
public:
    static const Texts& instance();
    // Starts reading the texts in a thread of their own, so that they are
    // ready when the window first asks (called before the application is
    // built: the two overlap). Optional; at most once.
    static void loadInBackground();
    // The whole explanation object of a scenario ({} if none).
    QJsonObject scenario(const QString& id) const;
    QJsonObject advisor() const { return advisor_; }
    // A {"zh","en"} object in the current language.
    static QString pick(const QJsonValue& bilingual);
    // Shortcut: scenario(id)[key] in the current language.
    QString get(const QString& id, const QString& key) const;
    QString variantTitle(const QString& id, const QString& variant) const;
    QString variantText(const QString& id, const QString& variant) const;

private:
    Texts();
    QJsonObject scenarios_;
    QJsonObject advisor_;
};

}  // namespace idem
