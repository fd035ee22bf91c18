// Records golden traces again, each in its own format version (1, 2 or 3),
// from the configuration it holds: for a change that alters what a
// scenario's runs do on purpose (its SQL, its answers). Not a test: run it by
// hand, then read the difference before committing it.
//   goldentool tests/golden/v1-payment-callback.json ...
#include "digest.h"
#include "registry.h"
#include "run.h"
#include "trace.h"
#include "traceevent.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

using namespace idem;

namespace {

bool rerecord(const QString& path, QString* error) {
    TraceReader reader(path);
    TraceReader::Header header;
    if (!reader.readHeader(&header, error))
        return false;
    RunConfig config;
    if (!RunConfig::fromJson(header.config, &config, error))
        return false;
    const Scenario* scenario = findScenario(config.scenario);
    if (!scenario) {
        *error = QStringLiteral("unknown scenario %1").arg(config.scenario);
        return false;
    }
    RunOptions options;
    options.formatVersion = header.version;
    Run run(config, *scenario, options);
    if (!run.start(error))
        return false;
    run.runToEnd();
    if (!run.finish(error))
        return false;
    const QJsonObject summary = run.summary().toJson(header.version);
    QByteArray out;
    if (header.version == 1) {
        // Version 1 was one indented JSON document, without a digest.
        QJsonArray events;
        for (const TraceEvent& e : run.trace().events()) events.append(e.toJson(1));
        out = QJsonDocument(QJsonObject{{"format", "idemlab-trace"},
                                        {"version", 1},
                                        {"config", header.config},
                                        {"events", events},
                                        {"summary", summary}})
                  .toJson(QJsonDocument::Indented);
    } else {
        // One event a line, then the summary and the digest of both.
        Sha256 digest;
        out = "{\"format\":\"idemlab-trace\",\"version\":" + QByteArray::number(header.version) +
              ",\"config\":" + QJsonDocument(header.config).toJson(QJsonDocument::Compact) +
              ",\n\"events\":[\n";
        const QList<TraceEvent>& events = run.trace().events();
        for (qsizetype i = 0; i < events.size(); ++i) {
            const QByteArray line = header.version == kTraceVersion
                                        ? events[i].toJsonBytes()
                                        : QJsonDocument(events[i].toJson(header.version))
                                              .toJson(QJsonDocument::Compact);
            digest.addData(line);
            digest.addData("\n");
            out += line + (i + 1 < events.size() ? ",\n" : "\n");
        }
        const QByteArray summaryBytes = QJsonDocument(summary).toJson(QJsonDocument::Compact);
        digest.addData(summaryBytes);
        out += "],\n\"summary\":" + summaryBytes +
               ",\n\"digest\":\"sha256:" + digest.result().toHex() + "\"}\n";
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(out) != out.size()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QTextStream err(stderr);
    int status = 0;
    for (const QString& path : app.arguments().mid(1)) {
        QString error;
        if (!rerecord(path, &error)) {
            err << path << ": " << error << Qt::endl;
            status = 1;
        }
    }
    return status;
}
