#include "outcometexts.h"

#include "names.h"

#include <QCoreApplication>

namespace idem {

// The translation context of these sentences.
class OutcomeTexts {
    Q_DECLARE_TR_FUNCTIONS(idem::OutcomeTexts)
};

QString wrongAnswerText(const WrongAnswer& w) {
    QString told = responseName(toId(w.told));
    if (!w.result.isEmpty())
        told = OutcomeTexts::tr("%1 (%2)").arg(told, w.result.translated());
    return OutcomeTexts::tr("attempt %1 was told “%2”, but %3")
        .arg(w.attempt)
        .arg(told, w.database.translated());
}

}  // namespace idem
