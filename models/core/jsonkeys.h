// JSON allows an object to name a key twice and leaves the meaning open;
// QJsonDocument keeps one of the two values without a word. A trace or a
// lesson with a key twice (a summary saying "verdict" twice, an event with
// two row counts) is refused instead: what a reader sees must be what the
// file says.
#pragma once

#include <QByteArray>
#include <QString>

namespace idem::json {

// The first key that an object of `text` names twice, with where it is
// ("summary.verdict", "frames[2].load.intents"; `prefix` names the value
// itself); empty when there is none. Reads JSON text, valid or not, in one
// pass; `text` that is not JSON has no duplicate to report.
QString duplicateKey(const QByteArray& text, const QString& prefix = {});

}  // namespace idem::json
