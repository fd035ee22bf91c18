// A sentence the lab writes about a run (a wrong answer, what the database
// shows, an inconsistency, the result an answer carries): its template,
// marked for translation in the context of the code that wrote it, and its
// arguments. In English it is the summary's and the trace's words, byte for
// byte; where a reader sees it, it is said in the reader's language.
#pragma once

#include <QString>
#include <QVariant>

#include <vector>

namespace idem {

class Phrase {
public:
    Phrase() = default;
    // Said as it is in every language: an id, a number, a state, the
    // database's own words.
    Phrase(const QString& literal) : literal_(literal) {}
    Phrase(const char* literal) : literal_(QString::fromUtf8(literal)) {}
    // `source` marked with QT_TRANSLATE_NOOP(context, ...); %1, %2 … are
    // filled with `args`, each said in the same language as the whole.
    Phrase(const char* context, const char* source, std::vector<Phrase> args = {})
        : context_(context), source_(source), args_(std::move(args)) {}

    static Phrase number(qint64 n) { return Phrase(QString::number(n)); }
    // The same template with these arguments (a declared caption, filled
    // where it is said).
    Phrase with(std::vector<Phrase> args) const {
        Phrase p = *this;
        p.args_ = std::move(args);
        return p;
    }

    bool isEmpty() const { return !source_ && literal_.isEmpty(); }
    bool isLiteral() const { return !source_; }
    const char* context() const { return context_; }
    const char* source() const { return source_; }
    QString english() const;
    // In the translation installed now (English without one).
    QString translated() const;

    // As a trace field's value: a literal as its string, a template as
    // itself (its string, and so its JSON, is the English).
    QVariant toVariant() const;
    // A field's value: what toVariant wrote, or any other value said as its
    // string (a trace read from a file holds only the English).
    static Phrase fromVariant(const QVariant& value);

    bool operator==(const Phrase& other) const;

private:
    QString said(bool translate) const;

    const char* context_ = nullptr;
    const char* source_ = nullptr;
    QString literal_;
    std::vector<Phrase> args_;
};

}  // namespace idem

Q_DECLARE_METATYPE(idem::Phrase)
