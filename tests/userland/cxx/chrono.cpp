// SPDX-License-Identifier: MIT
// <chrono> (libc++ over musl's clock_gettime, which is time64 on 32-bit Hexagon):
// duration arithmetic, casts and literals, steady_clock's monotonicity, sleep_for and
// sleep_until measured against steady_clock, system_clock against time(), to_time_t
// and from_time_t of dates past 2038 (64-bit time_t), high_resolution_clock, calendar
// types (year_month_day, weekday) and hh_mm_ss. Only facts that hold on every run are
// printed.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>

using namespace std::chrono;
using namespace std::chrono_literals;

namespace {

void durations()
{
    auto d = 1h + 30min + 15s + 250ms;
    std::printf("total ms %lld\n", static_cast<long long>(duration_cast<milliseconds>(d).count()));
    std::printf("in minutes (floor) %lld, rounded %lld, ceil %lld\n",
                static_cast<long long>(floor<minutes>(d).count()),
                static_cast<long long>(round<minutes>(d).count()),
                static_cast<long long>(ceil<minutes>(d).count()));
    duration<double> secs = d;
    std::printf("as double seconds %.3f\n", secs.count());
    std::printf("ns in a day %lld\n", static_cast<long long>(nanoseconds(24h).count()));
    std::printf("abs(-5s) %lld, 7s %% 3s %lld, 10s / 4s %lld\n",
                static_cast<long long>(abs(-5s).count()), static_cast<long long>((7s % 3s).count()),
                static_cast<long long>(10s / 4s));
    std::printf("1.5h == 90min: %d, 1s > 999ms: %d\n", duration<double, std::ratio<3600>>(1.5) == 90min,
                1s > 999ms);
    hh_mm_ss<milliseconds> t(d);
    std::printf("hh_mm_ss %lld:%lld:%lld.%lld\n", static_cast<long long>(t.hours().count()),
                static_cast<long long>(t.minutes().count()), static_cast<long long>(t.seconds().count()),
                static_cast<long long>(t.subseconds().count()));
}

void clocks()
{
    std::printf("steady_clock is_steady %d; sizeof(time_t) %zu\n", steady_clock::is_steady,
                sizeof(std::time_t));
    auto prev = steady_clock::now();
    bool mono = true;
    for (int i = 0; i < 1000; i++) {
        auto now = steady_clock::now();
        if (now < prev)
            mono = false;
        prev = now;
    }
    std::printf("steady_clock monotonic over 1000 reads: %d\n", mono);

    auto t0 = steady_clock::now();
    std::this_thread::sleep_for(30ms);
    auto slept = duration_cast<milliseconds>(steady_clock::now() - t0);
    std::printf("sleep_for(30ms) slept at least 30 ms: %d, under 5 s: %d\n", slept >= 30ms, slept < 5s);
    auto target = steady_clock::now() + 20ms;
    std::this_thread::sleep_until(target);
    std::printf("sleep_until reached its time: %d\n", steady_clock::now() >= target);

    std::time_t c = std::time(nullptr);
    auto sys = system_clock::to_time_t(system_clock::now());
    std::printf("system_clock agrees with time() within 2 s: %d\n", sys - c >= 0 && sys - c <= 2);
    std::printf("system_clock is after 2020: %d\n",
                system_clock::now() > sys_days{year{2020} / January / 1});
    auto h0 = high_resolution_clock::now();
    auto h1 = high_resolution_clock::now();
    std::printf("high_resolution_clock does not go back: %d\n", h1 >= h0);
}

void calendar()
{
    sys_days day = year{2040} / March / 15;
    std::time_t t = system_clock::to_time_t(day + 13h + 7min + 9s);
    std::printf("2040-03-15 13:07:09 UTC as time_t %lld\n", static_cast<long long>(t));
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a", &tm);
    std::printf("gmtime_r: %s\n", buf);
    auto back = system_clock::from_time_t(t);
    std::printf("from_time_t round trip: %d\n", floor<days>(back) == day);
    year_month_day ymd{floor<days>(back)};
    std::printf("ymd %d-%u-%u, weekday %u, leap 2040 %d\n", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                weekday{day}.c_encoding(), ymd.year().is_leap());
    sys_days feb_end = year{2024} / February / last;
    std::printf("last day of Feb 2024: %u\n", static_cast<unsigned>(year_month_day{feb_end}.day()));
    std::printf("days from 1970 to 2040-03-15: %lld\n",
                static_cast<long long>(day.time_since_epoch().count()));
    auto far = sys_days{year{2100} / 1 / 1} - sys_days{year{2000} / 1 / 1};
    std::printf("days 2000..2100: %lld\n", static_cast<long long>(far.count()));
}

} // namespace

int main()
{
    durations();
    clocks();
    calendar();
    std::printf("ok\n");
    return 0;
}
