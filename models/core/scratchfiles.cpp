#include "scratchfiles.h"

#include <QFile>

#include <unistd.h>
#include <array>
#include <atomic>
#include <climits>
#include <cstring>

namespace idem::scratch {

namespace {

// A run's file, its three companions, its folder's alive.lock (rundatabase.h)
// and its folder, each a C string ready for unlink() and rmdir(); the window
// runs a few at once, the command line one.
constexpr int kSlots = 16;
constexpr int kFiles = 4;
const char* const kSuffixes[kFiles] = {"", "-wal", "-shm", "-journal"};

struct Slot {
    std::atomic<bool> taken{false};
    std::atomic<bool> ready{false};  // paths written; the handler may read them
    std::array<std::array<char, PATH_MAX>, kFiles + 1> files{};
    std::array<char, PATH_MAX> folder{};
};
std::array<Slot, kSlots> table;

bool copy(std::array<char, PATH_MAX>& to, const QByteArray& from) {
    if (from.size() + 1 > qsizetype(to.size()))
        return false;
    std::memcpy(to.data(), from.constData(), std::size_t(from.size()) + 1);
    return true;
}

}  // namespace

int remember(const QString& file, const QString& folder) {
    const QByteArray path = QFile::encodeName(file);
    for (int i = 0; i < kSlots; ++i) {
        Slot& s = table[std::size_t(i)];
        if (s.taken.exchange(true))
            continue;
        bool fits = copy(s.folder, QFile::encodeName(folder));
        for (int f = 0; f < kFiles; ++f)
            fits = fits && copy(s.files[std::size_t(f)], path + kSuffixes[f]);
        fits = fits &&
               copy(s.files[kFiles],
                    folder.isEmpty() ? QByteArray() : QFile::encodeName(folder + "/alive.lock"));
        if (!fits) {
            s.taken = false;
            return -1;
        }
        s.ready = true;
        return i;
    }
    return -1;
}

void forget(int handle) {
    if (handle < 0 || handle >= kSlots)
        return;
    Slot& s = table[std::size_t(handle)];
    s.ready = false;
    s.taken = false;
}

void removeAllNow() {
    for (Slot& s : table) {
        if (!s.ready.load())
            continue;
        for (const auto& file : s.files) ::unlink(file.data());
        if (s.folder[0] != '\0')
            ::rmdir(s.folder.data());
    }
}

}  // namespace idem::scratch
