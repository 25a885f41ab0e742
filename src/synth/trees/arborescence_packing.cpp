#include "synth/trees/arborescence_packing.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <tuple>

namespace ccforge::synth::trees {
namespace {

std::vector<int32_t> allVertices(int32_t n) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Grows one tree of `root` with multiplicity m in `graph` (capacities are taken as it grows);
// nullopt, with `graph` restored, when no edge keeps the condition.
std::optional<Arborescence> growTree(CapacityGraph& graph, ConnectivityGuard& guard, int32_t root, int64_t m,
                                     int64_t remaining) {
  const int32_t n = graph.vertices();
  const int64_t need = remaining - m;
  Arborescence tree{.root = root, .multiplicity = m, .edges = {}};
  std::vector<bool> inTree(static_cast<size_t>(n), false);
  inTree[static_cast<size_t>(root)] = true;
  std::vector<int32_t> depth(static_cast<size_t>(n), 0);
  graph.fromSource(root) -= m;
  auto undo = [&] {
    graph.fromSource(root) += m;
    for (auto [u, w] : tree.edges) graph.at(u, w) += m;
  };
  if (!guard.admits(graph, need, m)) {
    undo();
    return std::nullopt;
  }
  for (int32_t size = 1; size < n; ++size) {
    // Candidates leaving the tree, shallowest parent first (short trees), then widest.
    std::vector<std::tuple<int32_t, int64_t, int32_t, int32_t>> candidates;
    for (int32_t u = 0; u < n; ++u) {
      if (!inTree[static_cast<size_t>(u)]) continue;
      for (int32_t w = 0; w < n; ++w)
        if (!inTree[static_cast<size_t>(w)] && graph.at(u, w) >= m)
          candidates.emplace_back(depth[static_cast<size_t>(u)], -graph.at(u, w), u, w);
    }
    std::sort(candidates.begin(), candidates.end());
    bool grown = false;
    for (auto [parentDepth, negCap, u, w] : candidates) {
      graph.at(u, w) -= m;
      if (guard.admits(graph, need, m)) {
        tree.edges.emplace_back(u, w);
        inTree[static_cast<size_t>(w)] = true;
        depth[static_cast<size_t>(w)] = parentDepth + 1;
        grown = true;
        break;
      }
      graph.at(u, w) += m;
    }
    if (!grown) {
      undo();
      return std::nullopt;
    }
  }
  return tree;
}

}  // namespace

Packing packArborescences(CapacityGraph graph, int64_t treesPerRoot, const Deadline& deadline) {
  const int32_t n = graph.vertices();
  ConnectivityGuard guard(graph, allVertices(n));
  int64_t remaining = treesPerRoot * n;  // trees still to pack, over all roots
  if (!guard.admits(graph, remaining, 0))
    throw std::invalid_argument("the graph does not admit " + std::to_string(treesPerRoot) + " trees per root");
  Packing packing{.vertices = n, .treesPerRoot = treesPerRoot, .trees = {}, .maxFlows = 0};
  for (int32_t root = 0; root < n; ++root) {
    for (int64_t left = treesPerRoot; left > 0;) {
      std::optional<Arborescence> tree;
      for (int64_t m = left; !tree; m /= 2) {
        deadline.check("tree packing");
        if (m == 0) throw std::logic_error("tree packing: no edge keeps the branching condition");
        tree = growTree(graph, guard, root, m, remaining);
      }
      left -= tree->multiplicity;
      remaining -= tree->multiplicity;
      packing.trees.push_back(std::move(*tree));
    }
  }
  packing.maxFlows = guard.maxFlows();
  return packing;
}

std::vector<int64_t> edgeLoads(const Packing& packing) {
  const auto n = static_cast<size_t>(packing.vertices);
  std::vector<int64_t> load(n * n, 0);
  for (const Arborescence& t : packing.trees)
    for (auto [u, w] : t.edges) load[static_cast<size_t>(u) * n + static_cast<size_t>(w)] += t.multiplicity;
  return load;
}

int32_t depth(const Packing& packing) {
  int32_t most = 0;
  for (const Arborescence& t : packing.trees) {
    std::vector<int32_t> d(static_cast<size_t>(packing.vertices), 0);
    for (auto [u, w] : t.edges) most = std::max(most, d[static_cast<size_t>(w)] = d[static_cast<size_t>(u)] + 1);
  }
  return most;
}

}  // namespace ccforge::synth::trees
