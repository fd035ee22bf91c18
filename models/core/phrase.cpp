#include "phrase.h"

#include <QCoreApplication>

#include <cstring>
#include <mutex>

namespace idem {

namespace {

// Puts the arguments in the place of %1 … %9 in one pass, so that an
// argument holding "%1" stays as it is; a number without an argument stays
// too.
QString fill(const QString& text, const QStringList& args) {
    QString out;
    out.reserve(text.size() + 16 * args.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('%') && i + 1 < text.size() && text.at(i + 1).isDigit()) {
            const int n = text.at(i + 1).digitValue();
            if (n >= 1 && n <= args.size()) {
                out += args.at(n - 1);
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

}  // namespace

QString Phrase::said(bool translate) const {
    if (!source_)
        return literal_;
    QStringList args;
    args.reserve(qsizetype(args_.size()));
    for (const Phrase& a : args_) args << a.said(translate);
    const QString text =
        translate ? QCoreApplication::translate(context_, source_) : QString::fromUtf8(source_);
    return fill(text, args);
}

QString Phrase::english() const {
    return said(false);
}

QString Phrase::translated() const {
    return said(true);
}

QVariant Phrase::toVariant() const {
    if (!source_)
        return literal_;
    // A field holding a phrase reads as its English string: the trace's
    // JSON, a tooltip, a comparison with a stored trace.
    static std::once_flag registered;
    std::call_once(registered,
                   [] { QMetaType::registerConverter<Phrase, QString>(&Phrase::english); });
    return QVariant::fromValue(*this);
}

Phrase Phrase::fromVariant(const QVariant& value) {
    if (value.metaType() == QMetaType::fromType<Phrase>())
        return value.value<Phrase>();
    return Phrase(value.toString());
}

bool Phrase::operator==(const Phrase& other) const {
    if (!source_ || !other.source_)
        return !source_ && !other.source_ && literal_ == other.literal_;
    return std::strcmp(source_, other.source_) == 0 && std::strcmp(context_, other.context_) == 0 &&
           args_ == other.args_;
}

}  // namespace idem
