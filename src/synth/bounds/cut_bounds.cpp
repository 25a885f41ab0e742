#include "synth/bounds/cut_bounds.hpp"

#include <optional>
#include <stdexcept>

#include "base/union_find.hpp"
#include "synth/bounds/integer_network.hpp"
#include "topology/automorphisms.hpp"
#include "topology/boxes.hpp"
#include "synth/flow/max_flow.hpp"

namespace ccforge::synth {
namespace {

// Parametric searches stop long before this; reaching it means a bug, not a hard input.
constexpr int kMaxParametricRounds = 10000;

struct Oriented {
  int32_t from;
  int32_t to;
};

Oriented orient(const topo::Link& l, bool reversed) {
  return reversed ? Oriented{l.to, l.from} : Oriented{l.from, l.to};
}

void addLinks(FlowNetwork& network, const topo::Topology& t, const IntegerLinks& caps, bool reversed) {
  for (size_t id = 0; id < t.links().size(); ++id) {
    Oriented o = orient(t.links()[id], reversed);
    network.addEdge(o.from, o.to, checkedCapacity(caps.capacity[id], t.links().size()));
  }
}

// Exact bandwidth of the links leaving `inside` (in the chosen orientation).
Rational capacityLeaving(const topo::Topology& t, const std::vector<bool>& inside, bool reversed) {
  Rational sum = 0;
  for (const topo::Link& l : t.links()) {
    Oriented o = orient(l, reversed);
    if (inside[static_cast<size_t>(o.from)] && !inside[static_cast<size_t>(o.to)]) sum += l.bandwidthGBps;
  }
  return sum;
}

Rational capacityInto(const topo::Topology& t, int32_t vertex, bool reversed) {
  Rational sum = 0;
  for (const topo::Link& l : t.links())
    if (orient(l, reversed).to == vertex) sum += l.bandwidthGBps;
  return sum;
}

int32_t gpuCount(const topo::Topology& t) { return static_cast<int32_t>(t.gpus().size()); }

}  // namespace

std::vector<int32_t> allGatherSinks(const topo::Topology& t) {
  const std::optional<std::vector<int32_t>> rotation = topo::boxRotation(t);
  if (!rotation || !topo::isAutomorphism(t, *rotation, topo::Weighting::Weighted)) return t.gpus();
  base::UnionFind orbits(rotation->size());
  for (size_t v = 0; v < rotation->size(); ++v) orbits.unite(static_cast<int32_t>(v), (*rotation)[v]);
  std::vector<int32_t> sinks;
  for (int32_t g : t.gpus())
    if (orbits.find(g) == g) sinks.push_back(g);
  return sinks;
}

Rational allGatherRate(const topo::Topology& t, bool reversed) {
  const int32_t n = gpuCount(t);
  const auto vertices = static_cast<int32_t>(t.vertices().size());
  const std::vector<int32_t> sinks = allGatherSinks(t);
  Rational rate = -1;
  for (int32_t g : t.gpus()) {
    Rational r = capacityInto(t, g, reversed) / (n - 1);
    if (rate < 0 || r < rate) rate = r;
  }
  for (int round = 0; round < kMaxParametricRounds; ++round) {
    // Test: can every GPU but t push `rate` into t at once? Scaled by the rate's denominator.
    const BigInt p = boost::multiprecision::numerator(rate), q = boost::multiprecision::denominator(rate);
    IntegerLinks caps = integerLinks(t, q);
    const int64_t supply = checkedCapacity(p * caps.scale / q, t.links().size());
    Rational best = rate;
    for (int32_t sink : sinks) {
      FlowNetwork network(vertices + 1);
      addLinks(network, t, caps, reversed);
      const int32_t source = vertices;
      for (int32_t g : t.gpus())
        if (g != sink) network.addEdge(source, g, supply);
      if (network.maxFlow(source, sink) == supply * (n - 1)) continue;
      std::vector<bool> side = network.sourceSide(source);
      side.resize(static_cast<size_t>(vertices));
      int32_t inside = 0;
      for (int32_t g : t.gpus()) inside += side[static_cast<size_t>(g)] ? 1 : 0;
      Rational ratio = capacityLeaving(t, side, reversed) / inside;
      if (ratio < best) best = ratio;
    }
    if (best == rate) return rate;
    rate = best;
  }
  throw std::logic_error("allgather cut search did not converge");
}

Rational scatterRate(const topo::Topology& t, int32_t rootRank, bool reversed) {
  const int32_t n = gpuCount(t);
  const auto vertices = static_cast<int32_t>(t.vertices().size());
  const int32_t root = t.gpus()[static_cast<size_t>(rootRank)];
  Rational rate = 0;
  for (const topo::Link& l : t.links())
    if (orient(l, reversed).from == root) rate += l.bandwidthGBps;
  rate /= n - 1;
  for (int round = 0; round < kMaxParametricRounds; ++round) {
    const BigInt p = boost::multiprecision::numerator(rate), q = boost::multiprecision::denominator(rate);
    IntegerLinks caps = integerLinks(t, q);
    const int64_t demand = checkedCapacity(p * caps.scale / q, t.links().size());
    FlowNetwork network(vertices + 1);
    addLinks(network, t, caps, reversed);
    const int32_t sink = vertices;
    for (int32_t g : t.gpus())
      if (g != root) network.addEdge(g, sink, demand);
    if (network.maxFlow(root, sink) == demand * (n - 1)) return rate;
    std::vector<bool> side = network.sourceSide(root);
    side.resize(static_cast<size_t>(vertices));
    int32_t outside = 0;
    for (int32_t g : t.gpus()) outside += side[static_cast<size_t>(g)] ? 0 : 1;
    rate = capacityLeaving(t, side, reversed) / outside;
  }
  throw std::logic_error("scatter cut search did not converge");
}

Rational broadcastRate(const topo::Topology& t, int32_t rootRank, bool reversed) {
  const int32_t root = t.gpus()[static_cast<size_t>(rootRank)];
  IntegerLinks caps = integerLinks(t);
  Rational best = -1;
  for (int32_t g : t.gpus()) {
    if (g == root) continue;
    FlowNetwork network(static_cast<int32_t>(t.vertices().size()));
    addLinks(network, t, caps, reversed);
    Rational flow = Rational(network.maxFlow(root, g)) / caps.scale;
    if (best < 0 || flow < best) best = flow;
  }
  return best;
}

Rational allToAllCutRate(const topo::Topology& t) {
  const auto gpus = static_cast<int64_t>(t.gpus().size());
  const size_t vertices = t.vertices().size();
  std::optional<Rational> best;
  auto consider = [&](const std::vector<bool>& inside) {
    int64_t in = 0;
    for (int32_t g : t.gpus()) in += inside[static_cast<size_t>(g)] ? 1 : 0;
    if (in == 0 || in == gpus) return;
    const Rational rate = capacityLeaving(t, inside, false) / Rational(in * (gpus - in));
    if (!best || rate < *best) best = rate;
  };
  for (int32_t g : t.gpus()) {
    std::vector<bool> inside(vertices, false);
    inside[static_cast<size_t>(g)] = true;
    consider(inside);
  }
  for (int32_t box = 0; box < t.boxCount(); ++box) {
    std::vector<bool> inside(vertices, false);
    for (int32_t g : t.gpus()) inside[static_cast<size_t>(g)] = t.vertices()[static_cast<size_t>(g)].box == box;
    // Switches every link of which joins them to the box's GPUs (its NVSwitch).
    for (size_t v = 0; v < vertices; ++v) {
      if (t.vertices()[v].kind != topo::VertexKind::Switch) continue;
      bool own = !t.outLinks(static_cast<int32_t>(v)).empty();
      for (int32_t id : t.outLinks(static_cast<int32_t>(v)))
        own = own && t.isCompute(t.links()[static_cast<size_t>(id)].to) &&
              inside[static_cast<size_t>(t.links()[static_cast<size_t>(id)].to)];
      inside[v] = inside[v] || own;
    }
    consider(inside);
    for (size_t v = 0; v < vertices; ++v)
      if (t.vertices()[v].kind == topo::VertexKind::Nic && t.vertices()[v].box == box) inside[v] = true;
    consider(inside);
  }
  if (!best) throw std::invalid_argument("alltoall needs two GPUs");
  return *best;
}

}  // namespace ccforge::synth
