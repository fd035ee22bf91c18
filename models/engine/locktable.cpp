#include "locktable.h"

#include <algorithm>

namespace idem {

void LockTable::grant(SqlConnection* holder, const QString& lock) {
    held_.push_back(Held{holder, lock});
}

SqlConnection* LockTable::holderOf(const QString& lock) const {
    const auto it = std::find_if(held_.cbegin(), held_.cend(),
                                 [&lock](const Held& h) { return h.lock == lock; });
    return it == held_.cend() ? nullptr : it->holder;
}

void LockTable::await(SqlConnection* holder, Wake wake) {
    waiters_.push_back(Waiter{holder, std::move(wake)});
}

std::vector<LockTable::Wake> LockTable::release(SqlConnection* holder) {
    std::erase_if(held_, [holder](const Held& h) { return h.holder == holder; });
    std::vector<Wake> woken;
    std::vector<Waiter> still;
    for (Waiter& w : waiters_) {
        if (w.holder == holder)
            woken.push_back(std::move(w.wake));
        else
            still.push_back(std::move(w));
    }
    waiters_.swap(still);
    return woken;
}

void LockTable::clear() {
    held_.clear();
    waiters_.clear();
}

}  // namespace idem
