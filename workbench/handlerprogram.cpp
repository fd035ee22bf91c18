#include "handlerprogram.h"

#include "handlerlocation.h"
#include "watchdog.h"

#include <QCryptographicHash>
#include <QJSValueIterator>
#include <QRegularExpression>

#include <cmath>

namespace idem {

namespace {

const QString kPreludeFile = QStringLiteral("idemlab-prelude.js");

// What every handler finds besides its own code: the db object, whose calls
// only describe a statement for the handler to yield; redis.call, which
// describes a command the same way (where the run has a Redis); now(), the run's
// virtual time; Math.random from the run's seed; and no Date.
const char* const kPrelude = R"((function (global) {
    var lab = { now: 0, seed: 1, file: "" };
    function line() {
        var frames = String(new Error().stack).split("\n");
        for (var i = 0; i < frames.length; ++i) {
            var f = frames[i];
            if (f.indexOf(lab.file) >= 0) {
                var n = parseInt(f.substring(f.lastIndexOf(":") + 1), 10);
                return isNaN(n) ? 0 : n;
            }
        }
        return 0;
    }
    function call(op, sql, params, isolation) {
        return { labCall: op, sql: sql, params: params, isolation: isolation, line: line() };
    }
    global.redis = Object.freeze({
        call: function (...words) {
            return { labCall: "redis", command: words.map(String), line: line() };
        }
    });
    var db = Object.freeze({
        query: function (sql, ...params) { return call("query", sql, params); },
        exec: function (sql, ...params) { return call("exec", sql, params); },
        begin: function (isolation) { return call("begin", "", [], isolation); },
        commit: function () { return call("commit", "", []); },
        rollback: function () { return call("rollback", "", []); }
    });
    global.now = function () { return lab.now; };
    Math.random = function () {
        var t = (lab.seed = (lab.seed + 0x6D2B79F5) | 0);
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    delete global.Date;
    return { lab: lab, db: db };
}))";

QVariant toSqlValue(const QJSValue& v) {
    if (v.isNumber()) {
        const double d = v.toNumber();
        if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < 9007199254740992.0)
            return QVariant(qint64(d));
        return QVariant(d);
    }
    if (v.isBool())
        return QVariant(v.toBool() ? 1 : 0);
    if (v.isNull() || v.isUndefined())
        return QVariant();
    return QVariant(v.toString());
}

QJSValue toJsValue(const QVariant& v) {
    switch (v.typeId()) {
        case QMetaType::LongLong:
        case QMetaType::Int:
            return QJSValue(v.toDouble());
        case QMetaType::Double:
            return QJSValue(v.toDouble());
        case QMetaType::QString:
            return QJSValue(v.toString());
        case QMetaType::UnknownType:
        case QMetaType::Nullptr:
            return QJSValue(QJSValue::NullValue);
        default:
            return QJSValue(v.toString());
    }
}

}  // namespace

QString HandlerProblem::text() const {
    return QStringLiteral("%1:%2:%3: %4").arg(file).arg(line).arg(column).arg(message);
}

HandlerProgram::HandlerProgram()
    : engine_(std::make_unique<QJSEngine>()), watchdog_(std::make_unique<Watchdog>()) {
    const QJSValue prelude = engine_->evaluate(QString::fromLatin1(kPrelude), kPreludeFile, 1);
    const QJSValue made = prelude.call({engine_->globalObject()});
    lab_ = made.property(QStringLiteral("lab"));
    db_ = made.property(QStringLiteral("db"));
}

HandlerProgram::~HandlerProgram() {
    watchdog_.reset();  // joined before the engine it may interrupt goes
}

QString HandlerProgram::digest() const {
    return QString::fromLatin1(
        QCryptographicHash::hash(source_.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QJSValue HandlerProgram::guarded(const QJSValue& function, const QJSValue& self,
                                 const QJSValueList& args, bool* runaway) {
    watchdog_->arm(engine_.get(), kStepCpuMs);
    QJSValue result = self.isUndefined() ? QJSValue(function).call(args)
                                         : QJSValue(function).callWithInstance(self, args);
    *runaway = watchdog_->disarm();
    if (*runaway)
        engine_->setInterrupted(false);
    return result;
}

QString HandlerProgram::errorText(const QJSValue& error, int fallbackLine) const {
    int line = error.isError() ? error.property(QStringLiteral("lineNumber")).toInt() : 0;
    if (line <= 0)
        line = fallbackLine;
    return QStringLiteral("%1:%2: %3").arg(fileName_).arg(line).arg(error.toString());
}

bool HandlerProgram::load(const QString& source, const QString& fileName, HandlerProblem* problem) {
    source_ = source;
    fileName_ = fileName;
    problem->file = fileName;
    if (source.toUtf8().size() > kMaxSourceBytes) {
        problem->line = 1;
        problem->column = 1;
        problem->message = QStringLiteral(
                               "the handler is larger than %1 KiB; a handler is one "
                               "function of a service, not a program")
                               .arg(kMaxSourceBytes / 1024);
        return false;
    }
    lab_.setProperty(QStringLiteral("file"), QStringLiteral("file:") + fileName);
    // The file's top level inside a function, so that each run can have a
    // fresh copy of its globals; on the first line, so that lines stay.
    const QString wrapped = wrappedHandler(source);
    const QJSValue factory = engine_->evaluate(wrapped, fileName, 1);
    if (factory.isError()) {
        problem->line = factory.property(QStringLiteral("lineNumber")).toInt();
        problem->message = factory.toString();
        problem->column =
            syntaxErrorColumn(*engine_, source, fileName, problem->line, problem->message);
        return false;
    }
    factory_ = factory;
    QString error;
    if (!beginRun(1, &error)) {
        static const QRegularExpression at(QStringLiteral("^[^:]*:(\\d+): (.*)$"));
        const QRegularExpressionMatch m = at.match(error);
        problem->line = m.hasMatch() ? m.captured(1).toInt() : 1;
        problem->column = 1;
        problem->message = m.hasMatch() ? m.captured(2) : error;
        return false;
    }
    const QJSValue handle = module_.property(QStringLiteral("handle"));
    if (!handle.isCallable() || !module_.property(QStringLiteral("generator")).toBool()) {
        problem->line = 1;
        problem->column = 1;
        problem->message = QStringLiteral(
            "the file defines no generator function handle: write "
            "\"function* handle(request, db) { ... }\" and yield each db call");
        return false;
    }
    return true;
}

bool HandlerProgram::beginRun(quint32 seed, QString* error) {
    lab_.setProperty(QStringLiteral("seed"), double(seed));
    lab_.setProperty(QStringLiteral("now"), 0.0);
    watchdog_->rebase();
    bool runaway = false;
    const QJSValue module = guarded(factory_, QJSValue(), {}, &runaway);
    if (runaway) {
        *error = QStringLiteral("%1:1: the file's top level ran more than %2 ms without end")
                     .arg(fileName_)
                     .arg(kStepCpuMs);
        return false;
    }
    if (module.isError()) {
        *error = errorText(module, 1);
        return false;
    }
    module_ = module;
    return true;
}

bool HandlerProgram::schema(const QString& backend, QStringList* statements, QString* error) {
    statements->clear();
    QJSValue s = module_.property(QStringLiteral("schema"));
    if (s.isUndefined() || s.isNull())
        return true;
    if (s.isObject() && !s.isArray() && !s.isString())
        s = s.property(backend);
    if (s.isUndefined())
        return true;
    if (s.isString()) {
        *statements << s.toString();
        return true;
    }
    if (s.isArray()) {
        const int n = s.property(QStringLiteral("length")).toInt();
        for (int i = 0; i < n; ++i) {
            const QJSValue item = s.property(quint32(i));
            if (!item.isString()) {
                *error = QStringLiteral("schema[%1] is not a string").arg(i);
                return false;
            }
            *statements << item.toString();
        }
        return true;
    }
    *error = QStringLiteral(
        "schema must be a string, a list of strings, or an object of them by backend "
        "(sqlite, mariadb, postgres)");
    return false;
}

HandlerProgram::Generator HandlerProgram::start(const QVariantMap& request, QString* error) {
    Generator g;
    g.program_ = this;
    QJSValue req = engine_->newObject();
    for (auto it = request.cbegin(); it != request.cend(); ++it)
        req.setProperty(it.key(), toJsValue(it.value()));
    bool runaway = false;
    const QJSValue handle = module_.property(QStringLiteral("handle"));
    const QJSValue made = guarded(handle, QJSValue(), {req, db_}, &runaway);
    if (made.isError() || runaway || !made.property(QStringLiteral("next")).isCallable()) {
        *error = made.isError()
                     ? errorText(made, 1)
                     : QStringLiteral("%1: handle did not return a generator").arg(fileName_);
        return g;
    }
    g.generator_ = made;
    g.next_ = made.property(QStringLiteral("next"));
    g.line_ = handlerLine(source_);
    return g;
}

HandlerStep HandlerProgram::Generator::next(const QJSValue& input, qint64 now) {
    HandlerStep step;
    HandlerProgram& p = *program_;
    p.lab_.setProperty(QStringLiteral("now"), double(now));
    bool runaway = false;
    const QJSValue r = p.guarded(next_, generator_, {input}, &runaway);
    if (runaway) {
        step.runaway = true;
        step.error = p.watchdog_->overMemory()
                         ? QStringLiteral(
                               "%1:%2: the step that starts here took the handler "
                               "over %3 MiB of memory; stopped")
                               .arg(p.fileName_)
                               .arg(line_)
                               .arg(Watchdog::kMemoryBound / (1024 * 1024))
                         : QStringLiteral(
                               "%1:%2: the step that starts here ran more than %3 ms "
                               "of CPU without yielding; stopped")
                               .arg(p.fileName_)
                               .arg(line_)
                               .arg(kStepCpuMs);
        // What it held goes with it.
        p.engine_->collectGarbage();
        return step;
    }
    if (r.isError() || !r.isObject()) {
        step.error = p.errorText(r, line_);
        return step;
    }
    const QJSValue value = r.property(QStringLiteral("value"));
    if (r.property(QStringLiteral("done")).toBool()) {
        step.kind = HandlerStep::Kind::Returned;
        step.answer = value.toVariant();
        return step;
    }
    const QString op = value.property(QStringLiteral("labCall")).toString();
    static const QHash<QString, HandlerCall::Kind> kinds{
        {QStringLiteral("query"), HandlerCall::Kind::Query},
        {QStringLiteral("exec"), HandlerCall::Kind::Exec},
        {QStringLiteral("begin"), HandlerCall::Kind::Begin},
        {QStringLiteral("commit"), HandlerCall::Kind::Commit},
        {QStringLiteral("rollback"), HandlerCall::Kind::Rollback},
        {QStringLiteral("redis"), HandlerCall::Kind::Redis}};
    if (!value.isObject() || !kinds.contains(op)) {
        step.error = QStringLiteral(
                         "%1:%2: the handler yielded %3; yield only db.query, db.exec, "
                         "db.begin, db.commit, db.rollback or redis.call")
                         .arg(p.fileName_)
                         .arg(line_)
                         .arg(value.toString());
        return step;
    }
    const int line = value.property(QStringLiteral("line")).toInt();
    if (line > 0)
        line_ = line;
    step.call.line = line_;
    step.kind = HandlerStep::Kind::Call;
    step.call.kind = kinds.value(op);
    step.call.sql = value.property(QStringLiteral("sql")).toString();
    const QJSValue params = value.property(QStringLiteral("params"));
    const int n = params.property(QStringLiteral("length")).toInt();
    for (int i = 0; i < n; ++i) step.call.params << toSqlValue(params.property(quint32(i)));
    const QJSValue command = value.property(QStringLiteral("command"));
    const int words = command.property(QStringLiteral("length")).toInt();
    for (int i = 0; i < words; ++i) step.call.command << command.property(quint32(i)).toString();
    if (step.call.kind == HandlerCall::Kind::Redis && step.call.command.isEmpty()) {
        step.kind = HandlerStep::Kind::Failed;
        step.error =
            QStringLiteral("%1:%2: redis.call needs the command: redis.call(\"XACK\", ...)")
                .arg(p.fileName_)
                .arg(line_);
        return step;
    }
    const QJSValue isolation = value.property(QStringLiteral("isolation"));
    if (isolation.isString())
        step.call.isolation = isolation.toString();
    if ((step.call.kind == HandlerCall::Kind::Query || step.call.kind == HandlerCall::Kind::Exec) &&
        step.call.sql.trimmed().isEmpty()) {
        step.kind = HandlerStep::Kind::Failed;
        step.error = QStringLiteral("%1:%2: db.%3 needs the statement's text")
                         .arg(p.fileName_)
                         .arg(line_)
                         .arg(op);
    }
    return step;
}

QJSValue HandlerProgram::resultValue(HandlerCall::Kind kind, const SqlResult& r) {
    auto setError = [&r](QJSValue& o) {
        if (r.ok) {
            o.setProperty(QStringLiteral("error"), QJSValue(QJSValue::NullValue));
            return;
        }
        o.setProperty(QStringLiteral("error"), QString::fromLatin1(outcomeId(r.outcome)));
        o.setProperty(QStringLiteral("code"),
                      r.state.isEmpty() ? QJSValue(r.code) : QJSValue(r.state));
        o.setProperty(QStringLiteral("message"), r.message);
    };
    if (kind == HandlerCall::Kind::Query) {
        QJSValue rows = engine_->newArray(r.ok ? uint(r.data.size()) : 0);
        if (r.ok) {
            for (qsizetype i = 0; i < r.data.size(); ++i) {
                QJSValue row = engine_->newObject();
                const QVariantList& values = r.data[i];
                for (qsizetype c = 0; c < values.size(); ++c) {
                    const QString name =
                        c < r.columns.size() ? r.columns[c] : QStringLiteral("c%1").arg(c);
                    row.setProperty(name, toJsValue(values[c]));
                }
                rows.setProperty(quint32(i), row);
            }
        }
        setError(rows);
        return rows;
    }
    QJSValue o = engine_->newObject();
    o.setProperty(QStringLiteral("rowsAffected"), r.ok ? double(r.rows) : 0.0);
    o.setProperty(QStringLiteral("insertId"),
                  r.ok && r.insertId != 0 ? QJSValue(double(r.insertId)) : QJSValue());
    setError(o);
    return o;
}

QJSValue HandlerProgram::redisValue(const RedisReply& reply) {
    switch (reply.type) {
        case RedisReply::Type::Status:
        case RedisReply::Type::String:
            return QJSValue(reply.text);
        case RedisReply::Type::Integer:
            return QJSValue(double(reply.integer));
        case RedisReply::Type::Nil:
            return QJSValue(QJSValue::NullValue);
        case RedisReply::Type::Error: {
            // "BUSYGROUP Consumer Group name already exists": its first word.
            QJSValue o = engine_->newObject();
            o.setProperty(QStringLiteral("error"), reply.text.section(QLatin1Char(' '), 0, 0));
            o.setProperty(QStringLiteral("message"), reply.text);
            return o;
        }
        case RedisReply::Type::Array: {
            QJSValue list = engine_->newArray(uint(reply.elements.size()));
            for (qsizetype i = 0; i < reply.elements.size(); ++i)
                list.setProperty(quint32(i), redisValue(reply.elements[i]));
            return list;
        }
    }
    return {};
}

}  // namespace idem
