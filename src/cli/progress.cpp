#include "cli/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace ccforge::cli::progress {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kRepeat{5};

struct State {
  std::mutex mutex;
  std::condition_variable changed;
  bool forced = false;
  bool enabled = false;
  bool stopping = false;
  std::string command;
  std::string phase;
  Clock::time_point start = Clock::now();
  Clock::time_point phaseStart = Clock::now();
  uint64_t generation = 0;
  std::thread ticker;

  ~State() { stop(); }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    if (ticker.joinable()) ticker.join();
  }

  // Caller holds the mutex.
  void print(bool again) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::string line =
        fmt::format("ccforge {}: progress: [{:.1f} s] {}{}\n", command, elapsed, again ? "still " : "", phase);
    if (again)
      line.insert(line.size() - 1,
                  fmt::format(" ({:.0f} s so far)", std::chrono::duration<double>(Clock::now() - phaseStart).count()));
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  }

  void tick() {
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      const uint64_t seen = generation;
      // Every wait has a limit: wake after kRepeat and say the phase is still running.
      if (!changed.wait_for(lock, kRepeat, [&] { return stopping || generation != seen; }) && !phase.empty())
        print(true);
    }
  }
};

State& state() {
  static State s;
  return s;
}

}  // namespace

void force() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.forced = true;
}

void start(std::string_view command) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.command = command;
  s.enabled = s.forced || ::isatty(STDERR_FILENO) == 1;
  s.start = Clock::now();
}

bool enabled() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.enabled;
}

void phase(const std::string& text) {
  State& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.enabled || s.stopping) return;
    s.phase = text;
    s.phaseStart = Clock::now();
    ++s.generation;
    s.print(false);
    if (!s.ticker.joinable()) s.ticker = std::thread([&s] { s.tick(); });
  }
  s.changed.notify_all();
}

void done() { state().stop(); }

}  // namespace ccforge::cli::progress
