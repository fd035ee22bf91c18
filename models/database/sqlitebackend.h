// The embedded backend: one SQLite file per run (rundatabase.h), each session
// a libsqlite3 connection of its own, write-ahead logging so that readers see
// the last commit while a writer works.
#pragma once

#include "backend.h"
#include "rundatabase.h"

namespace idem {

class SqliteBackend final : public Backend {
public:
    QString id() const override { return QStringLiteral("sqlite"); }
    bool prepare(const QString& target, bool replace, QString* error, bool* badInput) override;
    bool publish(const QJsonObject& config, QString* error, bool* badInput) override;
    QString location() const override { return file_.workPath(); }
    std::unique_ptr<SqlConnection> connect(const QString& id) const override;
    QString configure(const Exec& exec) const override;
    const QString& beginStatement() const override;
    bool singleWriter() const override { return true; }

private:
    RunDatabase file_;
};

}  // namespace idem
