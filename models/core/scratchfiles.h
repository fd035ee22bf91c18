// The files runs in progress work in (a database beside --db, a temporary
// folder), listed where a signal handler can reach them: a second Ctrl+C or
// SIGTERM ends the program at once, and removes them first, so that nothing
// half-written is left behind even then.
#pragma once

#include <QString>

namespace idem::scratch {

// Remembers `file` (and the SQLite journal, WAL and shared-memory files
// beside it) and, when given, the folder that holds only them and its
// alive.lock. A handle to
// forget them with; -1 when every slot is taken (the files are then only
// removed by their owner, as before).
int remember(const QString& file, const QString& folder = {});
void forget(int handle);
// Removes every remembered file and folder. Async-signal-safe (unlink and
// rmdir only, on paths prepared beforehand); for a signal handler that
// ends the program next.
void removeAllNow();

}  // namespace idem::scratch
