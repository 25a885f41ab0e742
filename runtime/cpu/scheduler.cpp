#include "runtime/cpu/scheduler.hpp"

namespace ccforge::runtime {

Scheduler::Scheduler(const uint64_t* words, size_t count, size_t stride, int workers)
    : words_(words), count_(count), stride_(stride), parkedOn_(new std::atomic<uint32_t>[count]), waiters_(count) {
  for (size_t i = 0; i < count; ++i) parkedOn_[i].store(0, std::memory_order_relaxed);
  for (int k = 1; k < workers; ++k) helpers_.emplace_back([this] { helper(); });
}

Scheduler::~Scheduler() {
  {
    std::lock_guard lock(mutex_);
    shutdown_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : helpers_) t.join();
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

void Scheduler::helper() {
  std::unique_lock lock(mutex_);
  uint64_t seen = 0;
  while (true) {
    changed_.wait(lock, [&] { return shutdown_ || (!stop_ && generation_ != seen); });
    if (shutdown_) return;
    seen = generation_;
    ++busyHelpers_;
    work(lock, nullptr);
    --busyHelpers_;
    changed_.notify_all();  // run() waits for every helper to leave
  }
}

void Scheduler::work(std::unique_lock<std::mutex>& lock, const std::chrono::steady_clock::time_point* deadline) {
  while (!stop_) {
    if (ready_.empty()) {
      if (running_ == 0) {  // nothing runnable and nobody who could wake anything
        if (done_ < tasks_) outcome_ = Outcome::Deadlock;
        stop_ = true;
        changed_.notify_all();
        break;
      }
      if (!deadline) {
        changed_.wait(lock);
      } else if (changed_.wait_until(lock, *deadline) == std::cv_status::timeout && !stop_) {
        stop_ = true;  // workers finish the task they run, then leave
        outcome_ = Outcome::TimedOut;
        changed_.notify_all();
      }
      continue;
    }
    const int32_t task = ready_.front();
    ready_.pop_front();
    ++running_;
    lock.unlock();
    Blocked blocked{nullptr, 0};
    const bool finished = (*step_)(task, blocked);
    lock.lock();
    --running_;
    if (finished) {
      finished_[task] = 1;
      ++done_;
    } else {
      park(task, blocked);
    }
    if (!ready_.empty()) changed_.notify_one();
    if (deadline && std::chrono::steady_clock::now() > *deadline && !stop_) {
      stop_ = true;
      outcome_ = Outcome::TimedOut;
      changed_.notify_all();
    }
  }
}

Scheduler::Result Scheduler::run(int32_t tasks, std::chrono::milliseconds limit, const Step& step) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::unique_lock lock(mutex_);
  tasks_ = tasks;
  done_ = 0;
  running_ = 0;
  outcome_ = Outcome::Finished;
  finished_.assign(tasks, 0);
  ready_.clear();
  for (auto& w : waiters_) w.clear();
  for (size_t i = 0; i < count_; ++i) parkedOn_[i].store(0, std::memory_order_relaxed);
  for (int32_t t = 0; t < tasks; ++t) ready_.push_back(t);
  step_ = &step;
  stop_ = false;
  ++generation_;
  changed_.notify_all();
  work(lock, &deadline);
  changed_.wait(lock, [&] { return busyHelpers_ == 0 && running_ == 0; });
  step_ = nullptr;
  Result r;
  r.outcome = outcome_;
  if (r.outcome == Outcome::TimedOut && done_ == tasks_) r.outcome = Outcome::Finished;
  for (int32_t t = 0; t < tasks; ++t)
    if (!finished_[t]) r.unfinished.push_back(t);
  return r;
}

}  // namespace ccforge::runtime
