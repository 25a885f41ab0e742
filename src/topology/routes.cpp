#include "topology/routes.hpp"

#include <algorithm>
#include <utility>

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

// May a route from `source` to `target` go on from v to w? Switches and NICs are entered from the
// source or from one another, other GPUs only as relays.
bool mayEnter(const Topology& t, int32_t source, int32_t v, int32_t w, int32_t target) {
  if (w == target) return true;
  if (t.isCompute(w)) return relaysThrough(t, v, w);
  return v == source || !t.isCompute(v);
}

// The shortest route with the widest bottleneck, then the lowest vertex ids. `depth` holds the
// breadth-first layers from the source, complete up to the target's, and `order` the vertices
// in that order. The widest way on to the target is found from every vertex, deepest first; then,
// from the source on, the smallest next vertex that keeps the source's width.
std::vector<int32_t> widestLowest(const Topology& t, int32_t source, int32_t target, const std::vector<int32_t>& depth,
                                  const std::vector<int32_t>& order) {
  auto onward = [&](int32_t v, int32_t id) {
    const int32_t w = t.links()[static_cast<size_t>(id)].to;
    return depth[static_cast<size_t>(w)] == depth[static_cast<size_t>(v)] + 1 && mayEnter(t, source, v, w, target);
  };
  std::vector<Rational> width(t.vertices().size(), 0);  // 0: no shortest way on to the target
  auto through = [&](int32_t id) -> Rational {
    const Link& l = t.links()[static_cast<size_t>(id)];
    return l.to == target ? l.bandwidthGBps : std::min(l.bandwidthGBps, width[static_cast<size_t>(l.to)]);
  };
  for (auto v = order.rbegin(); v != order.rend(); ++v)
    for (int32_t id : t.outLinks(*v))
      if (onward(*v, id)) width[static_cast<size_t>(*v)] = std::max(width[static_cast<size_t>(*v)], through(id));
  const Rational& widest = width[static_cast<size_t>(source)];
  std::vector<int32_t> links;
  for (int32_t v = source; v != target;) {
    int32_t next = -1;
    for (int32_t id : t.outLinks(v))
      if (onward(v, id) && through(id) >= widest &&
          (next < 0 || t.links()[static_cast<size_t>(id)].to < t.links()[static_cast<size_t>(next)].to))
        next = id;
    links.push_back(next);
    v = t.links()[static_cast<size_t>(next)].to;
  }
  return links;
}

}  // namespace

std::optional<Route> routeBetween(const topo::Topology& t, int32_t fromRank, int32_t toRank) {
  const int32_t from = t.gpus()[static_cast<size_t>(fromRank)];
  const int32_t to = t.gpus()[static_cast<size_t>(toRank)];
  std::vector<int32_t> depth(t.vertices().size(), -1);
  std::vector<int32_t> via(t.vertices().size(), -1);  // the link that first reached the vertex
  std::vector<int32_t> order{from};                   // breadth-first; the target is not expanded
  depth[static_cast<size_t>(from)] = 0;
  for (size_t head = 0; head < order.size() && depth[static_cast<size_t>(to)] < 0; ++head) {
    const int32_t v = order[head];
    for (int32_t id : t.outLinks(v)) {
      const int32_t w = t.links()[static_cast<size_t>(id)].to;
      if (depth[static_cast<size_t>(w)] >= 0 || !mayEnter(t, from, v, w, to)) continue;
      depth[static_cast<size_t>(w)] = depth[static_cast<size_t>(v)] + 1;
      via[static_cast<size_t>(w)] = id;
      if (w != to) order.push_back(w);
    }
  }
  if (depth[static_cast<size_t>(to)] < 0) return std::nullopt;
  std::vector<int32_t> links;
  if (t.gpuRelay) {
    links = widestLowest(t, from, to, depth, order);
  } else {
    for (int32_t v = to; v != from; v = t.links()[static_cast<size_t>(via[static_cast<size_t>(v)])].from)
      links.push_back(via[static_cast<size_t>(v)]);
    std::reverse(links.begin(), links.end());
  }
  Route route;
  // From the receiver back: a sum of doubles depends on its order, and this one gives every route
  // without relays the alpha it had before relays existed, to the bit.
  for (auto id = links.rbegin(); id != links.rend(); ++id) {
    const topo::Link& l = t.links()[static_cast<size_t>(*id)];
    route.alphaUs += l.alphaUs;
    if (rankOfClass(l.linkClass) > rankOfClass(route.linkClass)) route.linkClass = l.linkClass;
  }
  route.links = std::move(links);
  return route;
}

}  // namespace ccforge::topo
