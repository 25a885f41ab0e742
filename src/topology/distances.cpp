#include "topology/distances.hpp"

#include <algorithm>
#include <deque>

#include "topology/routes.hpp"

namespace ccforge::topo {

std::vector<std::vector<int32_t>> stepDistances(const Topology& topology) {
  const auto n = topology.vertices().size();
  const auto& gpus = topology.gpus();
  std::vector<std::vector<int32_t>> result(gpus.size(), std::vector<int32_t>(gpus.size(), kUnreachable));
  for (size_t r = 0; r < gpus.size(); ++r) {
    // 0-1 BFS: entering a GPU costs one step, entering a switch or NIC none. States n + v: passing
    // through GPU v within a step, where the fabric relays (one route, as routeBetween takes it).
    std::vector<int32_t> dist(2 * n, kUnreachable);
    std::deque<int32_t> queue{gpus[r]};
    dist[static_cast<size_t>(gpus[r])] = 0;
    std::vector<bool> done(2 * n, false);
    auto reach = [&](int32_t state, int32_t candidate, int32_t cost) {
      int32_t& current = dist[static_cast<size_t>(state)];
      if (current != kUnreachable && current <= candidate) return;
      current = candidate;
      if (cost == 0)
        queue.push_front(state);
      else
        queue.push_back(state);
    };
    while (!queue.empty()) {
      int32_t state = queue.front();
      queue.pop_front();
      if (done[static_cast<size_t>(state)]) continue;
      done[static_cast<size_t>(state)] = true;
      const bool relaying = static_cast<size_t>(state) >= n;
      const auto v = static_cast<int32_t>(relaying ? static_cast<size_t>(state) - n : static_cast<size_t>(state));
      for (int32_t id : topology.outLinks(v)) {
        int32_t w = topology.links()[static_cast<size_t>(id)].to;
        int32_t cost = topology.isCompute(w) ? 1 : 0;
        if (!relaying || topology.isCompute(w)) reach(w, dist[static_cast<size_t>(state)] + cost, cost);
        if (relaysThrough(topology, v, w)) reach(static_cast<int32_t>(n) + w, dist[static_cast<size_t>(state)], 0);
      }
    }
    for (size_t t = 0; t < gpus.size(); ++t) result[r][t] = dist[static_cast<size_t>(gpus[t])];
  }
  return result;
}

std::optional<std::pair<int32_t, int32_t>> firstUnreachablePair(const std::vector<std::vector<int32_t>>& distances) {
  for (size_t a = 0; a < distances.size(); ++a)
    for (size_t b = 0; b < distances[a].size(); ++b)
      if (distances[a][b] == kUnreachable) return std::pair{static_cast<int32_t>(a), static_cast<int32_t>(b)};
  return std::nullopt;
}

std::optional<int32_t> diameter(const std::vector<std::vector<int32_t>>& distances) {
  if (firstUnreachablePair(distances)) return std::nullopt;
  int32_t most = 0;
  for (const auto& row : distances) most = std::max(most, *std::max_element(row.begin(), row.end()));
  return most;
}

}  // namespace ccforge::topo
