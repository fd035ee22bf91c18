// Parses the run options shared by `run` and `shot` into a RunConfig.
#pragma once

#include "configcheck.h"
#include "runconfig.h"

#include <QCommandLineParser>
#include <QString>

namespace idem::cli {

// --backend, --connect and --isolation: where a run runs (run, shot,
// experiment).
void addBackendOptions(QCommandLineParser& parser);
// --connect URL, if given: the server's URL is read (never contacting it),
// and its scheme decides the backend. *backend comes in as --backend or the
// trace gives it (empty: none given) and leaves as the URL's; false with one
// line, which never repeats a password, when the URL is not one or names
// another backend.
bool readConnect(const QCommandLineParser& parser, QString* backend, QString* connect,
                 QString* error);
void addRunOptions(QCommandLineParser& parser);
// Fills `config` from the parsed options; on bad input returns false with one
// line naming the bad value and the allowed ones.
// A run whose estimated cost is above kMaxEstimatedStatements is refused
// unless --allow-large is given.
bool readRunOptions(const QCommandLineParser& parser, RunConfig* config, QString* error);
// Why a configuration is too large to run without --allow-large, naming the
// estimate, the limit and the options that change it; empty when it is not.
// Keeps::Events: the run keeps its events in memory (run --narrate).
QString costProblem(const RunConfig& config, Keeps keeps = Keeps::Counts);

}  // namespace idem::cli
