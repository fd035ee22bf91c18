// The answers the run's callers got (Scheduler): counted per intent as
// they come, their texts kept once, and read back for the judge.
#include "scheduler.h"

#include "attempt.h"
#include "sqlconnection.h"
#include "sqlstatement.h"

namespace idem {

namespace {

bool isDefinite(Response r) {
    return r == Response::Success || r == Response::Rejected || r == Response::Error;
}

}  // namespace

void Scheduler::keepAnswer(const Attempt& a, Response response, const Phrase& result) {
    IntentState& state = intents_[std::size_t(a.intent())];
    ++state.responses[std::size_t(response)];
    if (isDefinite(response))
        state.answered = true;
    AnswerRecord record;
    record.attempt = a.number();
    record.response = quint8(response);
    record.changedPayload = quint16(a.changedPayload());
    // The repeats of an intent mostly get the answer its previous attempt got.
    if (state.lastAnswer >= 0) {
        const quint32 previous = answers_[std::size_t(state.lastAnswer)].result;
        record.result = phraseAt(previous) == result ? previous : keepText(result);
    } else {
        record.result = keepText(result);
    }
    if (!a.operation().isEmpty()) {
        qsizetype op = operations_.indexOf(a.operation());
        if (op < 0) {
            op = operations_.size();
            operations_.append(a.operation());
        }
        record.operation = quint16(op);
    }
    const auto index = qint32(answers_.size());
    answers_.push_back(record);
    if (state.lastAnswer >= 0)
        answers_[std::size_t(state.lastAnswer)].next = index;
    else
        state.firstAnswer = index;
    state.lastAnswer = index;
}

quint32 Scheduler::keepText(const Phrase& phrase) {
    if (phrase.isEmpty())
        return 0;
    const QString text = phrase.english();
    textArena_.insert(textArena_.end(), text.utf16(), text.utf16() + text.size());
    textStart_.push_back(quint32(textArena_.size()));
    const auto index = quint32(textStart_.size() - 2);
    if (!phrase.isLiteral())
        phrases_.insert(index, phrase);
    return index;
}

QString Scheduler::textAt(quint32 index) const {
    const quint32 begin = textStart_[index];
    const quint32 end = textStart_[index + 1];
    return QString(reinterpret_cast<const QChar*>(textArena_.data() + begin),
                   qsizetype(end - begin));
}

Phrase Scheduler::phraseAt(quint32 index) const {
    const auto sentence = phrases_.constFind(index);
    return sentence != phrases_.cend() ? sentence.value() : Phrase(textAt(index));
}

Scheduler::Answer Scheduler::answerAt(qint32 index) const {
    const AnswerRecord& r = answers_[std::size_t(index)];
    return Answer{r.attempt, Response(r.response), phraseAt(r.result), r.changedPayload,
                  operations_.at(r.operation)};
}

std::vector<Scheduler::Answer> Scheduler::answersOf(int intent) const {
    std::vector<Answer> answers;
    for (qint32 i = intents_[std::size_t(intent)].firstAnswer; i >= 0;
         i = answers_[std::size_t(i)].next) {
        answers.push_back(answerAt(i));
    }
    return answers;
}

}  // namespace idem
