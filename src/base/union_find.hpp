// Disjoint sets over 0..n-1 with path halving. The smaller id becomes the root, so a set's root
// is its smallest member (orbits of automorphisms are named by it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace ccforge::base {

class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }

  int32_t find(int32_t x) {
    while (at(x) != x) x = at(x) = at(at(x));
    return x;
  }

  void unite(int32_t a, int32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (b < a) std::swap(a, b);
    at(b) = a;
  }

 private:
  int32_t& at(int32_t x) { return parent_[static_cast<size_t>(x)]; }
  std::vector<int32_t> parent_;
};

}  // namespace ccforge::base
