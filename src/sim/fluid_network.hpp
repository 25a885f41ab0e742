// Transfers sharing links as fluids: every link's capacity is split max-min fairly among
// the transfers crossing it, each transfer also capped by its own rate limit. Rates change
// only when a transfer starts or ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ccforge::sim {

class FluidNetwork {
 public:
  explicit FluidNetwork(std::vector<double> linkBytesPerSecond) : capacity_(std::move(linkBytesPerSecond)) {}

  // Starts a transfer of `bytes` over `links` at the current time; returns its id.
  int64_t start(std::vector<int32_t> links, double bytes, double rateCap);
  // The earliest time an active transfer finishes; infinity when none is active.
  double nextCompletion();
  // Moves time forward to `time` (<= nextCompletion()); returns the transfers that
  // finished, in the order they were started.
  std::vector<int64_t> advanceTo(double time);
  double now() const { return now_; }
  size_t active() const { return transfers_.size(); }

 private:
  struct Transfer {
    int64_t id;
    std::vector<int32_t> links;
    double remaining;
    double cap;
    double rate = 0;
  };
  void assignRates();

  std::vector<double> capacity_;
  std::vector<Transfer> transfers_;  // in start order
  double now_ = 0;
  int64_t nextId_ = 0;
  bool dirty_ = false;
  double cachedNext_ = std::numeric_limits<double>::infinity();
};

}  // namespace ccforge::sim
