// What the library's programs share: argument access and parameter checks.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "library.hpp"

namespace ccforge::algorithms {

inline int32_t arg(const Arguments& a, std::string_view name) { return static_cast<int32_t>(a.find(name)->second); }

inline void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

inline bool powerOfTwo(int32_t n) { return n > 0 && (n & (n - 1)) == 0; }

inline semantics::CallForm callForm(const Arguments& a) {
  return arg(a, "inplace") ? semantics::CallForm::InPlace : semantics::CallForm::OutOfPlace;
}

// The rings of the ring algorithms, one per channel. Ranks fill `boxes` boxes in order; with one
// box every channel's ring is rank order. With several, channel c's ring enters each box at the
// box's c-th rank (mod the box's size) and goes round the box from there, so the channels cross
// between boxes at different ranks, on different NICs (rails), as NCCL's rings do. Or rings given
// rank by rank (instantiateOnRings), one per channel.
class Rings {
 public:
  explicit Rings(const Arguments& a) {
    const int32_t n = arg(a, "ranks"), boxes = arg(a, "boxes"), channels = arg(a, "channels");
    require(n % boxes == 0, "boxes=" + std::to_string(boxes) + " must divide ranks=" + std::to_string(n));
    const int32_t g = n / boxes;
    for (int32_t c = 0; c < channels; ++c) {
      std::vector<int32_t> order;
      for (int32_t p = 0; p < n; ++p) order.push_back(boxes == 1 ? p : p / g * g + (c + p % g) % g);
      add(std::move(order));
    }
  }
  Rings(const RingOrders& orders, int32_t n) {
    require(!orders.empty(), "no rings given");
    for (const std::vector<int32_t>& order : orders) {
      std::vector<bool> seen(static_cast<size_t>(n), false);
      require(static_cast<int32_t>(order.size()) == n,
              "a ring must visit every one of the " + std::to_string(n) + " ranks once");
      for (int32_t r : order) {
        require(r >= 0 && r < n && !seen[static_cast<size_t>(r)], "a ring must visit every rank once");
        seen[static_cast<size_t>(r)] = true;
      }
      add(order);
    }
  }
  int32_t channels() const { return static_cast<int32_t>(orders_.size()); }
  // The rank at `position` (taken mod ranks) of channel `channel`'s ring.
  int32_t rank(int32_t channel, int32_t position) const {
    const std::vector<int32_t>& o = orders_[static_cast<size_t>(channel) % orders_.size()];
    return o[static_cast<size_t>(position) % o.size()];
  }
  // Where `rank` is on channel `channel`'s ring.
  int32_t position(int32_t channel, int32_t rank) const {
    return positions_[static_cast<size_t>(channel) % positions_.size()][static_cast<size_t>(rank)];
  }

 private:
  void add(std::vector<int32_t> order) {
    std::vector<int32_t> where(order.size());
    for (size_t p = 0; p < order.size(); ++p) where[static_cast<size_t>(order[p])] = static_cast<int32_t>(p);
    orders_.push_back(std::move(order));
    positions_.push_back(std::move(where));
  }
  std::vector<std::vector<int32_t>> orders_;
  std::vector<std::vector<int32_t>> positions_;
};

}  // namespace ccforge::algorithms
