#include "runtime/cpu/scheduler.hpp"

#include <thread>

namespace ccforge::runtime {

Scheduler::Scheduler(const uint64_t* words, size_t count, size_t stride)
    : words_(words), count_(count), stride_(stride), parkedOn_(new std::atomic<uint32_t>[count]), waiters_(count) {
  for (size_t i = 0; i < count; ++i) parkedOn_[i].store(0, std::memory_order_relaxed);
}

void Scheduler::wake(const uint64_t* word) {
  // Pairs with park(): either the parked task's re-check sees the store, or we see it parked.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const size_t i = indexOf(word);
  if (parkedOn_[i].load(std::memory_order_seq_cst) == 0) return;
  {
    std::lock_guard lock(mutex_);
    std::vector<int32_t>& w = waiters_[i];
    for (int32_t t : w) ready_.push_back(t);
    parkedOn_[i].fetch_sub(static_cast<uint32_t>(w.size()), std::memory_order_seq_cst);
    w.clear();
  }
  changed_.notify_all();
}

void Scheduler::park(int32_t task, const Blocked& blocked) {
  const size_t i = indexOf(blocked.word);
  parkedOn_[i].fetch_add(1, std::memory_order_seq_cst);
  const uint64_t now = std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(blocked.word)).load(std::memory_order_seq_cst);
  if (now >= blocked.target) {  // changed since the task looked: run it again
    parkedOn_[i].fetch_sub(1, std::memory_order_seq_cst);
    ready_.push_back(task);
    return;
  }
  waiters_[i].push_back(task);
}

void Scheduler::work(const Step& step) {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (ready_.empty()) {
      if (running_ == 0) {  // nothing runnable and nobody who could wake anything
        if (done_ < tasks_) outcome_ = Outcome::Deadlock;
        stop_ = true;
        changed_.notify_all();
        stopped_.notify_all();
        break;
      }
      changed_.wait(lock);
      continue;
    }
    const int32_t task = ready_.front();
    ready_.pop_front();
    ++running_;
    lock.unlock();
    Blocked blocked{nullptr, 0};
    const bool finished = step(task, blocked);
    lock.lock();
    --running_;
    if (finished) {
      finished_[task] = 1;
      ++done_;
    } else {
      park(task, blocked);
    }
    if (!ready_.empty() || running_ == 0) changed_.notify_all();
  }
}

Scheduler::Result Scheduler::run(int32_t tasks, int workers, std::chrono::milliseconds limit, const Step& step) {
  tasks_ = tasks;
  done_ = 0;
  running_ = 0;
  stop_ = false;
  outcome_ = Outcome::Finished;
  finished_.assign(tasks, 0);
  ready_.clear();
  for (auto& w : waiters_) w.clear();
  for (size_t i = 0; i < count_; ++i) parkedOn_[i].store(0, std::memory_order_relaxed);
  for (int32_t t = 0; t < tasks; ++t) ready_.push_back(t);

  std::vector<std::thread> pool;
  for (int k = 0; k < workers; ++k) pool.emplace_back([&] { work(step); });
  {
    std::unique_lock lock(mutex_);
    if (!stopped_.wait_for(lock, limit, [&] { return stop_; })) {
      stop_ = true;  // workers finish the task they run, then leave
      outcome_ = Outcome::TimedOut;
      changed_.notify_all();
    }
  }
  for (std::thread& t : pool) t.join();
  Result r;
  r.outcome = outcome_;
  if (r.outcome == Outcome::TimedOut && done_ == tasks_) r.outcome = Outcome::Finished;
  for (int32_t t = 0; t < tasks; ++t)
    if (!finished_[t]) r.unfinished.push_back(t);
  return r;
}

}  // namespace ccforge::runtime
