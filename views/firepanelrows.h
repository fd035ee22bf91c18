// The fire panel's rows and the names it gives the isolation levels, shared
// by the panel (firepanel.cpp) and what it says about a configuration
// (firepaneltexts.cpp). Private to them.
#pragma once

#include <QString>

namespace idem::firepanel {

// The panel's rows, in order: their labels, with the keyboard mnemonic.
enum Row {
    VariantRow,
    DuplicatesRow,
    SourceRow,
    TimingRow,
    CrashRow,
    CrashAttemptRow,
    SeedRow,
    IntentsRow,
    BackendRow,
    IsolationRow,
    RedisRow
};
constexpr int kRows = 11;

// A row's label in the window's language, with its keyboard mnemonic.
QString rowLabel(Row row);

// The isolation levels as a person reads them.
QString isolationName(const QString& id);

}  // namespace idem::firepanel
