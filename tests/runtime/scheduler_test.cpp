// The CPU scheduler: parked tasks cost no CPU, wake-ups are not lost, deadlocks are exact.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime/cpu/scheduler.hpp"

using namespace ccforge::runtime;

namespace {

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

void store(Scheduler& s, uint64_t* w, uint64_t v) {
  std::atomic_ref<uint64_t>(*w).store(v, std::memory_order_release);
  s.wake(w);
}
uint64_t load(const uint64_t* w) {
  return std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(w)).load(std::memory_order_acquire);
}

}  // namespace

TEST_CASE("scheduler: a chain of 2000 tasks, each waiting for the previous one, completes") {
  constexpr int kTasks = 2000;
  std::vector<uint64_t> words(kTasks, 0);
  Scheduler s(words.data(), kTasks, 1, 2);
  // Task t waits for word t-1 to reach 1, then sets word t. Started in reverse, every one but the
  // first parks at least once.
  const Scheduler::Step step = [&](int32_t task, Scheduler::Blocked& b) {
    const int32_t t = kTasks - 1 - task;
    if (t > 0 && load(&words[t - 1]) < 1) {
      b = {&words[t - 1], 1};
      return false;
    }
    store(s, &words[t], 1);
    return true;
  };
  const Scheduler::Result r = s.run(kTasks, std::chrono::seconds(30), step);
  CHECK(r.outcome == Scheduler::Outcome::Finished);
  CHECK(r.unfinished.empty());
  CHECK(words[kTasks - 1] == 1);
}

TEST_CASE("scheduler: tasks waiting on each other are a deadlock, reported without waiting for the limit") {
  std::vector<uint64_t> words(2, 0);
  Scheduler s(words.data(), 2, 1, 2);
  const Scheduler::Step step = [&](int32_t task, Scheduler::Blocked& b) {
    b = {&words[1 - task], 1};
    return false;
  };
  const auto start = std::chrono::steady_clock::now();
  const Scheduler::Result r = s.run(2, std::chrono::seconds(60), step);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(r.outcome == Scheduler::Outcome::Deadlock);
  CHECK(r.unfinished == std::vector<int32_t>{0, 1});
}

TEST_CASE("scheduler: a parked task does not burn a core while it waits") {
  std::vector<uint64_t> words(1, 0);
  Scheduler s(words.data(), 1, 1, 2);
  // Task 0 waits for the word; task 1 sleeps 300 ms, then sets it.
  const Scheduler::Step step = [&](int32_t task, Scheduler::Blocked& b) {
    if (task == 0) {
      if (load(&words[0]) >= 1) return true;
      b = {&words[0], 1};
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    store(s, &words[0], 1);
    return true;
  };
  const double before = cpuSeconds();
  const Scheduler::Result r = s.run(2, std::chrono::seconds(30), step);
  const double used = cpuSeconds() - before;
  CHECK(r.outcome == Scheduler::Outcome::Finished);
  INFO("CPU time while one task slept and the other waited: " << used << " s");
  CHECK(used < 0.1);
}

TEST_CASE("scheduler: the time limit stops tasks that keep running") {
  std::vector<uint64_t> words(1, 0);
  Scheduler s(words.data(), 1, 1, 1);
  const Scheduler::Step step = [&](int32_t task, Scheduler::Blocked&) {
    if (task == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return true;
  };
  const Scheduler::Result r = s.run(3, std::chrono::milliseconds(10), step);
  CHECK(r.outcome == Scheduler::Outcome::TimedOut);
  CHECK(r.unfinished == std::vector<int32_t>{1, 2});
  // The scheduler is reusable after a stopped run.
  const Scheduler::Result again = s.run(3, std::chrono::seconds(10), step);
  CHECK(again.outcome == Scheduler::Outcome::Finished);
}
