// Parses the run options shared by `run` and `shot` into a RunConfig.
#pragma once

#include "runconfig.h"

#include <QCommandLineParser>
#include <QString>

namespace idem::cli {

void addRunOptions(QCommandLineParser& parser);
// Fills `config` from the parsed options; on bad input returns false with one
// line naming the bad value and the allowed ones.
bool readRunOptions(const QCommandLineParser& parser, RunConfig* config, QString* error);

}  // namespace idem::cli
