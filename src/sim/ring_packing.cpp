#include "sim/ring_packing.hpp"

#include <algorithm>
#include <numeric>

namespace ccforge::sim {
namespace {

// Every Hamiltonian cycle of the box from local GPU 0 over links with units (in DFS order, lowest
// indexes first), as long as the budget lasts.
std::vector<std::vector<int32_t>> hamiltonianCycles(const std::vector<std::vector<int32_t>>& units, int64_t& budget) {
  const size_t n = units.size();
  std::vector<std::vector<int32_t>> cycles;
  std::vector<int32_t> path{0};
  std::vector<bool> used(n, false);
  used[0] = true;
  std::vector<size_t> next{0};  // per depth: the next neighbour to try
  while (!path.empty() && budget-- > 0) {
    const int32_t v = path.back();
    size_t& w = next.back();
    if (path.size() == n) {
      if (units[static_cast<size_t>(v)][0] > 0) cycles.push_back(path);
      w = n;
    }
    while (w < n && (used[w] || units[static_cast<size_t>(v)][w] <= 0)) ++w;
    if (w == n) {
      used[static_cast<size_t>(v)] = path.size() > 1 ? false : used[static_cast<size_t>(v)];
      path.pop_back();
      next.pop_back();
      continue;
    }
    used[w] = true;
    path.push_back(static_cast<int32_t>(w));
    ++w;
    next.push_back(0);
  }
  return cycles;
}

// The most rings (at most `channels`) the links' units hold, chosen among `cycles` with repeats:
// a depth-first search over how many times each cycle is used, bounded by the fewest units any
// GPU has left to send.
class RingPacking {
 public:
  RingPacking(const std::vector<std::vector<int32_t>>& units, const std::vector<std::vector<int32_t>>& cycles,
              int32_t channels, int64_t& budget)
      : units_(units), cycles_(cycles), channels_(channels), budget_(budget) {}

  std::vector<size_t> best() {
    search(0);
    return best_;
  }

 private:
  int32_t fewestOut() const {
    int32_t fewest = -1;
    for (const std::vector<int32_t>& row : units_) {
      const int32_t out = std::accumulate(row.begin(), row.end(), 0);
      fewest = fewest < 0 ? out : std::min(fewest, out);
    }
    return fewest;
  }
  bool fits(size_t c) const {
    const std::vector<int32_t>& cycle = cycles_[c];
    for (size_t i = 0; i < cycle.size(); ++i)
      if (units_[static_cast<size_t>(cycle[i])][static_cast<size_t>(cycle[(i + 1) % cycle.size()])] <= 0) return false;
    return true;
  }
  void take(size_t c, int32_t d) {
    const std::vector<int32_t>& cycle = cycles_[c];
    for (size_t i = 0; i < cycle.size(); ++i)
      units_[static_cast<size_t>(cycle[i])][static_cast<size_t>(cycle[(i + 1) % cycle.size()])] -= d;
  }
  void search(size_t from) {
    if (chosen_.size() > best_.size()) best_ = chosen_;
    if (static_cast<int32_t>(chosen_.size()) >= channels_ || budget_-- <= 0) return;
    if (chosen_.size() + static_cast<size_t>(fewestOut()) <= best_.size()) return;
    for (size_t c = from; c < cycles_.size(); ++c) {
      if (!fits(c)) continue;
      take(c, 1);
      chosen_.push_back(c);
      search(c);
      chosen_.pop_back();
      take(c, -1);
      if (static_cast<int32_t>(best_.size()) >= channels_) return;
    }
  }

  std::vector<std::vector<int32_t>> units_;
  const std::vector<std::vector<int32_t>>& cycles_;
  int32_t channels_;
  int64_t& budget_;
  std::vector<size_t> chosen_, best_;
};

}  // namespace

std::vector<std::vector<int32_t>> packRings(const std::vector<std::vector<int32_t>>& units, int32_t limit) {
  if (units.size() < 2 || limit < 1) return {};
  int64_t budget = kRingSearchBudget;
  const std::vector<std::vector<int32_t>> cycles = hamiltonianCycles(units, budget);
  std::vector<std::vector<int32_t>> rings;
  for (size_t c : RingPacking(units, cycles, limit, budget).best()) rings.push_back(cycles[c]);
  return rings;
}

}  // namespace ccforge::sim
