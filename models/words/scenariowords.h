// The words a scenario shows, declared in its own file and marked for
// translation in its own context: its actors, its notes (their names on the
// sequence diagram and their captions), its guards and their decisions, the
// entity its state diagram follows, and its parameters' labels, help and
// values. What a scenario does not declare is the engine's word or a shared
// guard's (names.h, tracewords.h), or the id itself.
#pragma once

#include "phrase.h"

#include <QList>
#include <QString>

namespace idem {

struct TraceEvent;

// An id and how a reader names it.
struct Term {
    QString id{};
    Phrase name{};
};

// What fills one %n of a note's caption.
struct NoteArg {
    enum class From {
        Field,        // the value of one of the note's fields, as it is
        FieldActor,   // a field that names an actor: the actor's name
        FieldPhrase,  // a field the run wrote as a sentence: said in the reader's language
        Actor,        // the actor of the note: its name
        Who,          // the attempt or process the note is about ("#2", "the relay")
    };
    From from = From::Field;
    const char* key = nullptr;  // the field, for the Field kinds

    static NoteArg field(const char* key) { return {From::Field, key}; }
    static NoteArg actorIn(const char* key) { return {From::FieldActor, key}; }
    static NoteArg phraseIn(const char* key) { return {From::FieldPhrase, key}; }
    static NoteArg actor() { return {From::Actor, nullptr}; }
    static NoteArg who() { return {From::Who, nullptr}; }
};

// One kind of a scenario's notes (a.note(kind, ...)).
struct NoteWords {
    QString kind;
    Phrase label;    // short, on the sequence diagram
    Phrase caption;  // the step's caption, a sentence; %1, %2 … are `args`
    QList<NoteArg> args{};
    // Said only of a note that has this field; a kind may be declared more
    // than once, and the first declaration that fits is said.
    const char* when = nullptr;
};

// A guard decision of a scenario's own guard: its name (diagram labels) and
// the caption's sentence, where %1 is who decided and %2 the guard's name.
struct DecisionWords {
    QString id;
    Phrase name;
    Phrase sentence{};  // empty: the shared sentence of this decision
};

// One parameter's words in the window: its label, what it does (the
// tooltip), and the names of its choices beyond the shared "off" and "on".
struct ParamWords {
    QString key;
    Phrase label;
    Phrase help{};
    QList<Term> values{};
};

struct ScenarioWords {
    QList<Term> actors{};
    QList<NoteWords> notes{};
    QList<Term> guards{};
    QList<DecisionWords> decisions{};
    QList<ParamWords> params{};
    Phrase entity{};  // whose state the state diagram shows ("tcc_log record")

    // Each in the installed language; a word the scenario does not declare
    // is the engine's (or the shared guards'), else its id.
    QString actorName(const QString& id) const;
    QString guardName(const QString& id) const;
    QString decisionName(const QString& id) const;
    QString noteLabel(const QString& kind) const;
    QString paramLabel(const QString& key) const;
    // `fallback` (the scenario's English line) for a parameter without help.
    QString paramHelp(const QString& key, const QString& fallback) const;
    QString paramValueName(const QString& key, const QString& value) const;
    QString entityName(const QString& fallback) const;

    // The declarations the narrator reads; null when there is none.
    const NoteWords* note(const TraceEvent& e) const;
    const DecisionWords* decision(const QString& id) const;

    // No scenario's words: only the engine's.
    static const ScenarioWords& none();
};

}  // namespace idem
