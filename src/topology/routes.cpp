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

// The route as a Route: its links, the alphas summed from the receiver back (a sum of doubles
// depends on its order, and this one gives every route without relays the alpha it had before
// relays existed, to the bit), the slowest link class on the way.
Route routeOf(const Topology& t, std::vector<int32_t> links) {
  Route route;
  for (auto id = links.rbegin(); id != links.rend(); ++id) {
    const topo::Link& l = t.links()[static_cast<size_t>(*id)];
    route.alphaUs += l.alphaUs;
    if (rankOfClass(l.linkClass) > rankOfClass(route.linkClass)) route.linkClass = l.linkClass;
  }
  route.links = std::move(links);
  return route;
}

// The first NIC linked from (toNic) or to (!toNic) GPU vertex `gpu`: the link's id.
std::optional<int32_t> nicLink(const Topology& t, int32_t gpu, bool toNic) {
  for (int32_t id : toNic ? t.outLinks(gpu) : t.inLinks(gpu)) {
    const Link& l = t.links()[static_cast<size_t>(id)];
    if (t.vertices()[static_cast<size_t>(toNic ? l.to : l.from)].kind == VertexKind::Nic) return id;
  }
  return std::nullopt;
}

// The fewest links from vertex `from` to vertex `to` (first found in link order), passing only
// through vertices `passable` accepts; nullopt where there is no such way.
template <class Passable>
std::optional<std::vector<int32_t>> fewestLinks(const Topology& t, int32_t from, int32_t to, Passable passable) {
  std::vector<int32_t> via(t.vertices().size(), -1);
  std::vector<bool> seen(t.vertices().size(), false);
  std::vector<int32_t> order{from};
  seen[static_cast<size_t>(from)] = true;
  for (size_t head = 0; head < order.size() && !seen[static_cast<size_t>(to)]; ++head)
    for (int32_t id : t.outLinks(order[head])) {
      const int32_t w = t.links()[static_cast<size_t>(id)].to;
      if (seen[static_cast<size_t>(w)] || (w != to && !passable(w))) continue;
      seen[static_cast<size_t>(w)] = true;
      via[static_cast<size_t>(w)] = id;
      order.push_back(w);
    }
  if (!seen[static_cast<size_t>(to)]) return std::nullopt;
  std::vector<int32_t> links;
  for (int32_t v = to; v != from; v = t.links()[static_cast<size_t>(via[static_cast<size_t>(v)])].from)
    links.push_back(via[static_cast<size_t>(v)]);
  std::reverse(links.begin(), links.end());
  return links;
}

// From NIC `from` to NIC `to` through switches only.
std::optional<std::vector<int32_t>> acrossNetwork(const Topology& t, int32_t from, int32_t to) {
  return fewestLinks(t, from, to,
                     [&](int32_t v) { return t.vertices()[static_cast<size_t>(v)].kind == VertexKind::Switch; });
}

std::optional<Route> directRoute(const topo::Topology& t, int32_t fromRank, int32_t toRank);

// NCCL's PXN for a connection between boxes (topology.hpp `pxn`): the sender's box GPU with the
// receiver's index in its box is the proxy; the data reaches it over the box's own links, leaves
// through its NIC, crosses the switches to the receiver's NIC. nullopt where a piece is missing.
std::optional<Route> pxnRoute(const Topology& t, int32_t fromRank, int32_t toRank) {
  const int32_t fromBox = t.boxOfRank(fromRank), toBox = t.boxOfRank(toRank);
  int32_t index = 0;  // the receiver's index among its box's GPUs
  for (int32_t r = 0; r < toRank; ++r) index += t.boxOfRank(r) == toBox ? 1 : 0;
  int32_t proxy = -1;
  for (int32_t r = 0, seen = 0; r < static_cast<int32_t>(t.gpus().size()) && proxy < 0; ++r)
    if (t.boxOfRank(r) == fromBox && seen++ == index) proxy = r;
  if (proxy < 0) return std::nullopt;
  std::vector<int32_t> links;
  if (proxy != fromRank) {
    const std::optional<Route> inBox = directRoute(t, fromRank, proxy);
    if (!inBox || inBox->linkClass == LinkClass::Network) return std::nullopt;
    links = inBox->links;
  }
  const std::optional<int32_t> out = nicLink(t, t.gpus()[static_cast<size_t>(proxy)], true);
  const std::optional<int32_t> in = nicLink(t, t.gpus()[static_cast<size_t>(toRank)], false);
  if (!out || !in) return std::nullopt;
  const std::optional<std::vector<int32_t>> network =
      acrossNetwork(t, t.links()[static_cast<size_t>(*out)].to, t.links()[static_cast<size_t>(*in)].from);
  if (!network) return std::nullopt;
  links.push_back(*out);
  links.insert(links.end(), network->begin(), network->end());
  links.push_back(*in);
  return routeOf(t, std::move(links));
}

// The route of routeBetween without PXN.
std::optional<Route> directRoute(const topo::Topology& t, int32_t fromRank, int32_t toRank) {
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
  return routeOf(t, std::move(links));
}

}  // namespace

std::optional<Route> relayedRoute(const Topology& t, int32_t fromRank, int32_t toRank) {
  const int32_t fromBox = t.boxOfRank(fromRank), toBox = t.boxOfRank(toRank);
  std::optional<std::vector<int32_t>> links =
      fewestLinks(t, t.gpus()[static_cast<size_t>(fromRank)], t.gpus()[static_cast<size_t>(toRank)], [&](int32_t v) {
        const int32_t box = t.vertices()[static_cast<size_t>(v)].box;
        return !t.isCompute(v) || box == fromBox || box == toBox;
      });
  if (!links) return std::nullopt;
  return routeOf(t, std::move(*links));
}

std::optional<Route> routeBetween(const topo::Topology& t, int32_t fromRank, int32_t toRank) {
  if (t.pxn && t.boxOfRank(fromRank) != t.boxOfRank(toRank))
    if (std::optional<Route> relayed = pxnRoute(t, fromRank, toRank)) return relayed;
  return directRoute(t, fromRank, toRank);
}

std::optional<Route> simulatorRoute(const Topology& t, int32_t fromRank, int32_t toRank) {
  if (std::optional<Route> r = routeBetween(t, fromRank, toRank)) return r;
  if (t.boxOfRank(fromRank) != t.boxOfRank(toRank)) return t.pxn ? relayedRoute(t, fromRank, toRank) : std::nullopt;
  if (!t.hostPath) return std::nullopt;
  Route r;
  r.links = {hostUpLink(t, fromRank), hostDownLink(t, toRank)};
  r.alphaUs = 2 * t.hostPath->alphaUs;
  r.linkClass = LinkClass::PCIe;
  return r;
}

}  // namespace ccforge::topo
