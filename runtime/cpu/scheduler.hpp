// Runs many cooperative tasks (thread blocks) on a few worker threads without busy waiting.
// A task runs until it finishes or blocks on a condition "*word >= target" over one of the
// scheduler's sync words; a blocked task is parked until another task stores to that word and
// calls wake(). When no task is runnable and none is running, the remaining tasks can never
// progress: that is reported as a deadlock, exactly and at once. A time limit covers the rest.
// The calling thread works too; the other workers persist between runs.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ccforge::runtime {

class Scheduler {
 public:
  // Sync words live at words[i * stride] for i < count; `workers` threads in all (>= 1).
  Scheduler(const uint64_t* words, size_t count, size_t stride, int workers);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  struct Blocked {
    const uint64_t* word;
    uint64_t target;
  };
  // Runs task t; returns true when it has finished, else fills `blocked`.
  using Step = std::function<bool(int32_t task, Blocked& blocked)>;

  enum class Outcome { Finished, Deadlock, TimedOut };
  struct Result {
    Outcome outcome = Outcome::Finished;
    std::vector<int32_t> unfinished;  // ascending
  };
  Result run(int32_t tasks, std::chrono::milliseconds limit, const Step& step);

  // Called after a store to a sync word: makes tasks parked on it runnable.
  void wake(const uint64_t* word);

 private:
  void helper();  // a persistent worker thread
  // Runs tasks until the run stops; the caller (deadline set) also enforces the time limit.
  void work(std::unique_lock<std::mutex>& lock, const std::chrono::steady_clock::time_point* deadline);
  void park(int32_t task, const Blocked& blocked);  // with mutex_ held
  size_t indexOf(const uint64_t* word) const { return static_cast<size_t>(word - words_) / stride_; }

  const uint64_t* words_;
  size_t count_;
  size_t stride_;
  std::unique_ptr<std::atomic<uint32_t>[]> parkedOn_;  // per word, read without the lock by wake()
  std::vector<std::vector<int32_t>> waiters_;
  std::mutex mutex_;
  std::condition_variable changed_;  // a task became runnable, a run started or stopped
  std::deque<int32_t> ready_;
  std::vector<uint8_t> finished_;
  const Step* step_ = nullptr;
  uint64_t generation_ = 0;  // counts runs, so helpers join each run once
  int32_t tasks_ = 0;
  int32_t done_ = 0;
  int32_t running_ = 0;
  int32_t busyHelpers_ = 0;  // helpers inside work() for the current run
  bool stop_ = true;
  bool shutdown_ = false;
  Outcome outcome_ = Outcome::Finished;
  std::vector<std::thread> helpers_;
};

}  // namespace ccforge::runtime
