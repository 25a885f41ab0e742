#include "topology/routes.hpp"

#include <algorithm>
#include <deque>

namespace ccforge::topo {
namespace {

int rankOfClass(topo::LinkClass c) {
  switch (c) {
    case topo::LinkClass::NVLink: return 0;
    case topo::LinkClass::PCIe: return 1;
    case topo::LinkClass::Network: return 2;
  }
  return 0;
}

}  // namespace

std::optional<Route> routeBetween(const topo::Topology& t, int32_t fromRank, int32_t toRank) {
  const int32_t from = t.gpus()[static_cast<size_t>(fromRank)];
  const int32_t to = t.gpus()[static_cast<size_t>(toRank)];
  std::vector<int32_t> via(t.vertices().size(), -1);
  std::vector<bool> seen(t.vertices().size(), false);
  std::deque<int32_t> queue{from};
  seen[static_cast<size_t>(from)] = true;
  while (!queue.empty() && !seen[static_cast<size_t>(to)]) {
    int32_t v = queue.front();
    queue.pop_front();
    for (int32_t id : t.outLinks(v)) {
      int32_t w = t.links()[static_cast<size_t>(id)].to;
      if (seen[static_cast<size_t>(w)]) continue;
      if (t.isCompute(w) && w != to) continue;
      seen[static_cast<size_t>(w)] = true;
      via[static_cast<size_t>(w)] = id;
      if (!t.isCompute(w)) queue.push_back(w);
    }
  }
  if (!seen[static_cast<size_t>(to)]) return std::nullopt;
  Route route;
  for (int32_t v = to; v != from;) {
    const topo::Link& l = t.links()[static_cast<size_t>(via[static_cast<size_t>(v)])];
    route.links.push_back(via[static_cast<size_t>(v)]);
    route.alphaUs += l.alphaUs;
    if (rankOfClass(l.linkClass) > rankOfClass(route.linkClass)) route.linkClass = l.linkClass;
    v = l.from;
  }
  std::reverse(route.links.begin(), route.links.end());
  return route;
}

}  // namespace ccforge::topo
