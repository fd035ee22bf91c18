// A lazily started C++20 coroutine that can be awaited by another one, so that
// service handlers and guards read top to bottom like the real service code,
// with co_await wherever virtual time passes, SQL runs or a crash point sits.
#pragma once

#include <coroutine>
#include <exception>
#include <optional>
#include <utility>

namespace idem {

template <typename T>
class Task;

namespace detail {

// When a task finishes, control passes straight to whoever awaited it.
struct ResumeAwaiter {
    bool await_ready() noexcept { return false; }
    template <typename P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
        auto next = h.promise().continuation;
        return next ? next : std::noop_coroutine();
    }
    void await_resume() noexcept {}
};

struct PromiseBase {
    std::coroutine_handle<> continuation;
    std::exception_ptr exception;

    std::suspend_always initial_suspend() noexcept { return {}; }
    ResumeAwaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() { exception = std::current_exception(); }
};

template <typename T>
struct Promise : PromiseBase {
    std::optional<T> value;
    Task<T> get_return_object();
    template <typename U>
    void return_value(U&& v) {
        value.emplace(std::forward<U>(v));
    }
    T take() {
        if (exception)
            std::rethrow_exception(exception);
        return std::move(*value);
    }
};

template <>
struct Promise<void> : PromiseBase {
    Task<void> get_return_object();
    void return_void() {}
    void take() {
        if (exception)
            std::rethrow_exception(exception);
    }
};

}  // namespace detail

template <typename T = void>
class [[nodiscard]] Task {
public:
    using promise_type = detail::Promise<T>;
    using Handle = std::coroutine_handle<promise_type>;

    Task() = default;
    explicit Task(Handle h) : h_(h) {}
    Task(Task&& other) noexcept : h_(std::exchange(other.h_, {})) {}
    Task& operator=(Task&& other) noexcept {
        if (this != &other) {
            reset();
            h_ = std::exchange(other.h_, {});
        }
        return *this;
    }
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    // Destroying a suspended task destroys its frame, and with it every task
    // it is awaiting: this is how a crash ends a process mid-handler.
    ~Task() { reset(); }

    bool valid() const { return bool(h_); }
    bool done() const { return h_ && h_.done(); }
    Handle handle() const { return h_; }
    T result() { return h_.promise().take(); }

    // Awaiting a task starts it; the awaiter resumes when it finishes.
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        h_.promise().continuation = awaiting;
        return h_;
    }
    T await_resume() { return h_.promise().take(); }

private:
    void reset() {
        if (h_)
            h_.destroy();
        h_ = {};
    }
    Handle h_;
};

namespace detail {
template <typename T>
Task<T> Promise<T>::get_return_object() {
    return Task<T>{std::coroutine_handle<Promise<T>>::from_promise(*this)};
}
inline Task<void> Promise<void>::get_return_object() {
    return Task<void>{std::coroutine_handle<Promise<void>>::from_promise(*this)};
}
}  // namespace detail

}  // namespace idem
