// Argument and environment vectors for a program a child process will
// exec: made before fork (the child of a lab with threads may only call
// async-signal-safe functions), plain pointers into bytes that stay alive
// in the lab's copy of memory.
#pragma once

#include <QByteArray>

#include <vector>

namespace idem::live {

struct ExecArgs {
    std::vector<QByteArray> bytes;
    std::vector<char*> pointers;
    void add(const QByteArray& b) { bytes.push_back(b); }
    char* const* finish() {
        pointers.clear();
        for (QByteArray& b : bytes) pointers.push_back(b.data());
        pointers.push_back(nullptr);
        return pointers.data();
    }
};

}  // namespace idem::live
