// The generator's random numbers: splitmix64, so a seed gives the same program on every platform
// (std distributions differ between standard libraries).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ccforge::property {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int32_t below(size_t n) { return static_cast<int32_t>(next() % n); }
  int32_t between(int32_t lo, int32_t hi) { return lo + below(static_cast<size_t>(hi - lo + 1)); }
  bool chance(int32_t percent) { return below(100) < percent; }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<size_t>(below(i))]);
  }

 private:
  uint64_t state_;
};

}  // namespace ccforge::property
