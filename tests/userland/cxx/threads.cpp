// SPDX-License-Identifier: MIT
// C++ threads (libc++'s <thread>, <mutex>, <condition_variable>, <future> over musl's
// pthreads): std::thread with arguments and join, a mutex-protected counter, a bounded
// queue between producers and consumers on two condition variables, std::call_once,
// thread_local objects with constructors and destructors, std::async and
// std::promise/std::future (an exception carried from one thread to another),
// std::atomic, std::shared_mutex, condition_variable::wait_for timing out, and
// std::jthread-free hardware_concurrency. Output is totals only, the same whatever the
// schedule.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <future>
#include <mutex>
#include <numeric>
#include <shared_mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 4;
constexpr int kIters = 2000;

void counter()
{
    std::mutex m;
    long total = 0;
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; t++)
        ts.emplace_back([&m, &total](int add) {
            for (int i = 0; i < kIters; i++) {
                std::lock_guard<std::mutex> g(m);
                total += add;
            }
        }, t + 1);
    for (auto &t : ts)
        t.join();
    std::printf("counter %ld (expected %d)\n", total, kIters * (1 + 2 + 3 + 4));
}

class Queue {
public:
    void push(int v)
    {
        std::unique_lock<std::mutex> l(m_);
        not_full_.wait(l, [this] { return q_.size() < 8; });
        q_.push_back(v);
        not_empty_.notify_one();
    }
    int pop()
    {
        std::unique_lock<std::mutex> l(m_);
        not_empty_.wait(l, [this] { return !q_.empty(); });
        int v = q_.front();
        q_.pop_front();
        not_full_.notify_one();
        return v;
    }

private:
    std::mutex m_;
    std::condition_variable not_full_, not_empty_;
    std::deque<int> q_;
};

void producer_consumer()
{
    Queue q;
    constexpr int kPer = 500;
    std::atomic<long> consumed{0};
    std::atomic<int> count{0};
    std::vector<std::thread> ts;
    for (int p = 0; p < 2; p++)
        ts.emplace_back([&q, p] {
            for (int i = 1; i <= kPer; i++)
                q.push(p * 10000 + i);
            q.push(-1);
        });
    for (int c = 0; c < 2; c++)
        ts.emplace_back([&] {
            for (;;) {
                int v = q.pop();
                if (v < 0)
                    break;
                consumed += v;
                count++;
            }
        });
    for (auto &t : ts)
        t.join();
    std::printf("queue: %d items, sum %ld\n", count.load(), consumed.load());
}

struct Tracked {
    static std::atomic<int> made, destroyed;
    int value = 0;
    Tracked() { made++; }
    ~Tracked() { destroyed++; }
};
std::atomic<int> Tracked::made{0}, Tracked::destroyed{0};
thread_local Tracked tl_obj;
thread_local int tl_int = 100;

void once_and_tls()
{
    std::once_flag flag;
    std::atomic<int> runs{0};
    std::atomic<int> tls_ok{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; t++)
        ts.emplace_back([&, t] {
            std::call_once(flag, [&] { runs++; });
            tl_int += t;
            tl_obj.value = t;
            std::this_thread::yield();
            if (tl_int == 100 + t && tl_obj.value == t)
                tls_ok++;
        });
    for (auto &t : ts)
        t.join();
    std::printf("call_once ran %d time(s); thread_local private in %d of %d threads\n",
                runs.load(), tls_ok.load(), kThreads);
    std::printf("thread_local objects: %d made, %d destroyed by the threads' exits\n",
                Tracked::made.load(), Tracked::destroyed.load());
    std::printf("main's tl_int %d\n", tl_int);
}

long long sum_range(long from, long to)
{
    long long s = 0;
    for (long i = from; i < to; i++)
        s += i;
    return s;
}

void futures()
{
    auto a = std::async(std::launch::async, sum_range, 0L, 50000L);
    auto b = std::async(std::launch::async, sum_range, 50000L, 100000L);
    auto d = std::async(std::launch::deferred, sum_range, 0L, 10L);
    std::printf("async sum %lld, deferred %lld\n", a.get() + b.get(), d.get());

    std::promise<int> p;
    std::future<int> f = p.get_future();
    std::thread t([&p] {
        try {
            throw std::runtime_error("failed in worker");
        } catch (...) {
            p.set_exception(std::current_exception());
        }
    });
    try {
        f.get();
    } catch (const std::runtime_error &e) {
        std::printf("future carried: %s\n", e.what());
    }
    t.join();

    std::packaged_task<int(int)> task([](int x) { return x * x; });
    auto tf = task.get_future();
    std::thread(std::move(task), 12).join();
    std::printf("packaged_task %d\n", tf.get());
}

void shared_and_timeouts()
{
    std::shared_mutex sm;
    int data = 0;
    std::atomic<int> reads{0};
    std::vector<std::thread> ts;
    ts.emplace_back([&] {
        for (int i = 0; i < 100; i++) {
            std::unique_lock<std::shared_mutex> w(sm);
            data++;
        }
    });
    for (int r = 0; r < 3; r++)
        ts.emplace_back([&] {
            for (int i = 0; i < 100; i++) {
                std::shared_lock<std::shared_mutex> rl(sm);
                if (data >= 0)
                    reads++;
            }
        });
    for (auto &t : ts)
        t.join();
    std::printf("shared_mutex: data %d, reads %d\n", data, reads.load());

    std::mutex m;
    std::condition_variable cv;
    std::unique_lock<std::mutex> l(m);
    auto t0 = std::chrono::steady_clock::now();
    bool woke = cv.wait_for(l, std::chrono::milliseconds(20), [] { return false; });
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - t0).count();
    std::printf("wait_for timed out: %d, waited at least 20 ms: %d\n", !woke, ms >= 20);
    std::timed_mutex tm;
    tm.lock();
    std::thread([&tm] {
        std::printf("try_lock_for on a held mutex: %d\n",
                    tm.try_lock_for(std::chrono::milliseconds(5)));
    }).join();
    tm.unlock();
    std::printf("hardware_concurrency is positive: %d\n", std::thread::hardware_concurrency() > 0);
    std::printf("thread ids differ: %d\n", std::this_thread::get_id() != std::thread::id());
}

} // namespace

int main()
{
    counter();
    producer_consumer();
    once_and_tls();
    futures();
    shared_and_timeouts();
    std::printf("ok\n");
    return 0;
}
