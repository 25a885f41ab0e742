// What the library's programs share: argument access and parameter checks.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "library.hpp"

namespace ccforge::algorithms {

inline int32_t arg(const Arguments& a, std::string_view name) { return static_cast<int32_t>(a.find(name)->second); }

inline void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

inline bool powerOfTwo(int32_t n) { return n > 0 && (n & (n - 1)) == 0; }

inline CallForm callForm(const Arguments& a) { return arg(a, "inplace") ? CallForm::InPlace : CallForm::OutOfPlace; }

// The rings of the ring algorithms, one per channel. Ranks fill `boxes` boxes in order; with one
// box every channel's ring is rank order. With several, channel c's ring enters each box at the
// box's c-th rank (mod the box's size) and goes round the box from there, so the channels cross
// between boxes at different ranks, on different NICs (rails), as NCCL's rings do.
class Rings {
 public:
  explicit Rings(const Arguments& a) : n_(arg(a, "ranks")), boxes_(arg(a, "boxes")) {
    require(n_ % boxes_ == 0, "boxes=" + std::to_string(boxes_) + " must divide ranks=" + std::to_string(n_));
  }
  // The rank at `position` (taken mod ranks) of channel `channel`'s ring.
  int32_t rank(int32_t channel, int32_t position) const {
    position %= n_;
    if (boxes_ == 1) return position;
    const int32_t g = n_ / boxes_;
    return position / g * g + (channel + position % g) % g;
  }
  // Where `rank` is on channel `channel`'s ring.
  int32_t position(int32_t channel, int32_t rank) const {
    if (boxes_ == 1) return rank;
    const int32_t g = n_ / boxes_;
    return rank / g * g + ((rank % g - channel % g) % g + g) % g;
  }

 private:
  int32_t n_;
  int32_t boxes_;
};

}  // namespace ccforge::algorithms
