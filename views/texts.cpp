#include "texts.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include <future>
#include <memory>

namespace idem {

namespace {
Language g_language = Language::English;
}

Language currentLanguage() {
    return g_language;
}
void setCurrentLanguage(Language language) {
    g_language = language;
}
QString languageCode(Language language) {
    return language == Language::Chinese ? QStringLiteral("zh") : QStringLiteral("en");
}

namespace {
std::future<std::unique_ptr<Texts>>& loading() {
    static std::future<std::unique_ptr<Texts>> future;
    return future;
}
}  // namespace

void Texts::loadInBackground() {
    if (!loading().valid())
        loading() =
            std::async(std::launch::async, [] { return std::unique_ptr<Texts>(new Texts); });
}

const Texts& Texts::instance() {
    static const std::unique_ptr<Texts> texts =
        loading().valid() ? loading().get() : std::unique_ptr<Texts>(new Texts);
    return *texts;
}

Texts::Texts() {
    const QDir dir(QStringLiteral(":/explanations"));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")})) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        if (name == QLatin1String("advisor.json")) {
            advisor_ = o;
        } else {
            scenarios_.insert(o.value("id").toString(), o);
        }
    }
}

QJsonObject Texts::scenario(const QString& id) const {
    return scenarios_.value(id).toObject();
}

QString Texts::pick(const QJsonValue& bilingual) {
    const QJsonObject o = bilingual.toObject();
    const QString want = o.value(languageCode(currentLanguage())).toString();
    return want.isEmpty() ? o.value("en").toString() : want;
}

QString Texts::get(const QString& id, const QString& key) const {
    return pick(scenario(id).value(key));
}

QString Texts::variantTitle(const QString& id, const QString& variant) const {
    return pick(scenario(id).value("variants").toObject().value(variant).toObject().value("title"));
}

QString Texts::variantText(const QString& id, const QString& variant) const {
    return pick(scenario(id).value("variants").toObject().value(variant).toObject().value("text"));
}

}  // namespace idem
