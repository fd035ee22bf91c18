#include "outcometexts.h"

#include "names.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace idem {

// The translation context of these sentences.
class OutcomeTexts {
    Q_DECLARE_TR_FUNCTIONS(idem::OutcomeTexts)
};

namespace {

// The judge writes what the database shows in English (the run summary's
// words, the same in every language); the window says it in the reader's.
QString databaseText(const QString& judged) {
    static const QRegularExpression kResult(QStringLiteral("^the result is (.*)$"));
    static const QRegularExpression kDone(QStringLiteral("^it was done: (.*)$"));
    if (judged == QLatin1String("nothing was done"))
        return OutcomeTexts::tr("nothing was done");
    if (judged == QLatin1String("it was done"))
        return OutcomeTexts::tr("it was done");
    if (judged == QLatin1String("the changed request was not carried out; the original stands"))
        return OutcomeTexts::tr("the changed request was not carried out; the original stands");
    if (judged == QLatin1String("the changed request was not carried out; nothing was done"))
        return OutcomeTexts::tr("the changed request was not carried out; nothing was done");
    if (const auto m = kResult.match(judged); m.hasMatch())
        return OutcomeTexts::tr("the result is %1").arg(m.captured(1));
    if (const auto m = kDone.match(judged); m.hasMatch())
        return OutcomeTexts::tr("it was done: %1").arg(m.captured(1));
    return judged;
}

}  // namespace

QString wrongAnswerText(const WrongAnswer& w) {
    QString told = responseName(toId(w.told));
    if (!w.result.isEmpty())
        told = OutcomeTexts::tr("%1 (%2)").arg(told, w.result);
    return OutcomeTexts::tr("attempt %1 was told “%2”, but %3")
        .arg(w.attempt)
        .arg(told, databaseText(w.database));
}

}  // namespace idem
