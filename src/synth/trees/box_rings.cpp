#include "synth/trees/box_rings.hpp"

#include <algorithm>
#include <map>

#include "semantics/protocol.hpp"
#include "topology/routes.hpp"

namespace ccforge::synth::trees {
namespace {

// DFS expansions of the cycle search; MI250's box needs a few thousand.
constexpr int64_t kSearchBudget = 2'000'000;

using Units = std::vector<std::vector<int64_t>>;  // [u][v]: link units from u to v

// Local indices' GPU-GPU link units of one box (per direction), or nullopt when a link is not a
// whole multiple of `unit`.
std::optional<Units> directedUnits(const topo::Topology& t, const std::vector<int32_t>& box,
                                   const topo::Rational& unit) {
  const size_t n = box.size();
  Units units(n, std::vector<int64_t>(n, 0));
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      const std::optional<int32_t> link =
          t.findLink(t.gpus()[static_cast<size_t>(box[a])], t.gpus()[static_cast<size_t>(box[b])]);
      if (!link) continue;
      const topo::Rational k = t.links()[static_cast<size_t>(*link)].bandwidthGBps / unit;
      if (denominator(k) != 1) return std::nullopt;
      units[a][b] = static_cast<int64_t>(numerator(k));
    }
  return units;
}

// The smallest bandwidth of a GPU-GPU link inside the box, if any.
std::optional<topo::Rational> smallestLink(const topo::Topology& t, const std::vector<int32_t>& box) {
  std::optional<topo::Rational> least;
  for (int32_t a : box)
    for (int32_t b : box) {
      if (a == b) continue;
      if (std::optional<int32_t> l = t.findLink(t.gpus()[static_cast<size_t>(a)], t.gpus()[static_cast<size_t>(b)])) {
        const topo::Rational& bw = t.links()[static_cast<size_t>(*l)].bandwidthGBps;
        if (!least || bw < *least) least = bw;
      }
    }
  return least;
}

// The most unit-disjoint Hamiltonian cycles of an undirected multigraph, by depth-first
// search over cycles (each found cycle's units taken, the rest searched again), within a budget.
class CycleSearch {
 public:
  CycleSearch(Units undirected, const Deadline& deadline) : cap_(std::move(undirected)), deadline_(deadline) {
    const size_t n = cap_.size();
    // Each cycle is two rings, each on a channel of its own: more than the runtime has are of no
    // use (and the search, one nesting per cycle, stays shallow).
    ceiling_ = semantics::kMaxChannels / 2;
    for (size_t v = 0; v < n; ++v) {
      int64_t degree = 0;
      for (size_t w = 0; w < n; ++w) degree += cap_[v][w];
      ceiling_ = std::min(ceiling_, degree / 2);
    }
  }

  std::vector<std::vector<int32_t>> run() {
    if (cap_.size() >= 3 && ceiling_ > 0) extend();
    return best_;
  }

 private:
  // Looks for one more cycle on top of `chosen_`.
  void extend() {
    if (done()) return;
    path_ = {0};
    used_.assign(cap_.size(), false);
    used_[0] = true;
    grow();
  }

  bool done() const { return static_cast<int64_t>(best_.size()) >= ceiling_ || expansions_ > kSearchBudget; }

  void grow() {
    if (done()) return;
    if ((++expansions_ & 0xfff) == 0) deadline_.check("ring search");
    const size_t n = cap_.size();
    const int32_t last = path_.back();
    if (path_.size() == n) {
      // Each undirected cycle once: its second vertex below its last.
      if (cap_[static_cast<size_t>(last)][0] == 0 || path_[1] > path_.back()) return;
      closeCycle();
      return;
    }
    for (size_t next = 1; next < n && !done(); ++next) {
      if (used_[next] || cap_[static_cast<size_t>(last)][next] == 0) continue;
      used_[next] = true;
      path_.push_back(static_cast<int32_t>(next));
      grow();
      path_.pop_back();
      used_[next] = false;
    }
  }

  void closeCycle() {
    const std::vector<int32_t> cycle = path_;
    take(cycle, -1);
    chosen_.push_back(cycle);
    if (chosen_.size() > best_.size()) best_ = chosen_;
    const std::vector<int32_t> savedPath = path_;
    const std::vector<bool> savedUsed = used_;
    extend();
    path_ = savedPath;
    used_ = savedUsed;
    chosen_.pop_back();
    take(cycle, +1);
  }

  void take(const std::vector<int32_t>& cycle, int64_t delta) {
    for (size_t i = 0; i < cycle.size(); ++i) {
      const auto a = static_cast<size_t>(cycle[i]), b = static_cast<size_t>(cycle[(i + 1) % cycle.size()]);
      cap_[a][b] += delta;
      cap_[b][a] += delta;
    }
  }

  Units cap_;
  const Deadline& deadline_;
  int64_t ceiling_ = 0;
  int64_t expansions_ = 0;
  std::vector<int32_t> path_;
  std::vector<bool> used_;
  std::vector<std::vector<int32_t>> chosen_;
  std::vector<std::vector<int32_t>> best_;
};

}  // namespace

std::vector<int32_t> BoxRings::path(size_t r, size_t i) const {
  const std::vector<int32_t>& ring = rings[r];
  const size_t n = ring.size();
  const size_t hops = truncated[r][i] ? n - 2 : n - 1;
  std::vector<int32_t> out;
  for (size_t h = 1; h <= hops; ++h) out.push_back(ring[(i + h) % n]);
  return out;
}

std::optional<BoxRings> findBoxRings(const topo::Topology& topology, const Deadline& deadline) {
  std::map<int32_t, std::vector<int32_t>> byBox;
  const auto ranks = static_cast<int32_t>(topology.gpus().size());
  for (int32_t r = 0; r < ranks; ++r)
    byBox[topology.vertices()[static_cast<size_t>(topology.gpus()[static_cast<size_t>(r)])].box].push_back(r);
  BoxRings out;
  for (auto& [id, members] : byBox) out.boxes.push_back(members);
  const std::vector<int32_t>& first = out.boxes.front();
  if (first.size() < 3) return std::nullopt;
  const std::optional<topo::Rational> unit = smallestLink(topology, first);
  if (!unit) return std::nullopt;
  const std::optional<Units> units = directedUnits(topology, first, *unit);
  if (!units) return std::nullopt;
  for (const std::vector<int32_t>& box : out.boxes)
    if (box.size() != first.size() || directedUnits(topology, box, *unit) != units) return std::nullopt;
  for (size_t b = 1; b < out.boxes.size(); ++b)
    for (size_t i = 0; i < first.size(); ++i)
      if (!topo::routeBetween(topology, first[i], out.boxes[b][i]) ||
          !topo::routeBetween(topology, out.boxes[b][i], first[i]))
        return std::nullopt;

  const size_t n = first.size();
  Units undirected(n, std::vector<int64_t>(n, 0));
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b) undirected[a][b] = std::min((*units)[a][b], (*units)[b][a]);
  const std::vector<std::vector<int32_t>> cycles = CycleSearch(undirected, deadline).run();
  if (cycles.empty()) return std::nullopt;

  Units spare = *units;
  for (const std::vector<int32_t>& c : cycles)
    for (size_t i = 0; i < n; ++i) {
      const auto a = static_cast<size_t>(c[i]), b = static_cast<size_t>(c[(i + 1) % n]);
      --spare[a][b];
      --spare[b][a];
    }
  for (const std::vector<int32_t>& c : cycles) {
    out.rings.push_back(c);
    std::vector<int32_t> reverse{c.front()};
    reverse.insert(reverse.end(), c.rbegin(), c.rend() - 1);
    out.rings.push_back(reverse);
  }
  for (const std::vector<int32_t>& ring : out.rings) {
    std::vector<bool> cut(n);
    for (size_t i = 0; i < n; ++i)
      cut[i] = spare[static_cast<size_t>(ring[i])][static_cast<size_t>(ring[(i + n - 1) % n])] > 0;
    out.truncated.push_back(cut);
  }
  return out;
}

}  // namespace ccforge::synth::trees
