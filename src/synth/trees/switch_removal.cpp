#include "synth/trees/switch_removal.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "topology/routes.hpp"
#include "synth/bounds/cut_bounds.hpp"

namespace ccforge::synth::trees {
namespace {

using topo::BigInt;
using topo::Rational;

// The smallest k making every k * capacity / rate an integer.
int64_t treesPerRootFor(const std::vector<Rational>& capacities, const Rational& rate, int64_t maxTreesPerRoot) {
  BigInt k = 1;
  for (const Rational& c : capacities) {
    const BigInt d = boost::multiprecision::denominator(Rational(c / rate));
    k = k / boost::multiprecision::gcd(k, d) * d;
    if (k > maxTreesPerRoot)
      throw TreeCountLimit("tree packing would need more than " + std::to_string(maxTreesPerRoot) +
                           " trees per root (link bandwidths are not commensurate with the rate " +
                           topo::toString(rate) + " GB/s)");
  }
  return static_cast<int64_t>(k);
}

int64_t scaled(const Rational& capacity, const Rational& rate, int64_t k) {
  const Rational v = capacity * k / rate;
  if (boost::multiprecision::denominator(v) != 1 || v > Rational(int64_t{1} << 40))
    throw std::logic_error("switch removal: capacity scaling is not integral");
  return static_cast<int64_t>(boost::multiprecision::numerator(v));
}

// Which vertices lie on the runtime's route between two GPUs (in the direction data moves).
class RouteFilter {
 public:
  RouteFilter(const topo::Topology& t, bool reversed) : topology_(t), reversed_(reversed) {
    const auto n = t.gpus().size();
    onRoute_.assign(n * n, std::vector<bool>(t.vertices().size(), false));
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b) {
        if (a == b) continue;
        auto route = topo::routeBetween(t, static_cast<int32_t>(a), static_cast<int32_t>(b));
        if (!route) continue;
        for (int32_t l : route->links)
          onRoute_[a * n + b][static_cast<size_t>(t.links()[static_cast<size_t>(l)].to)] = true;
      }
  }
  // May u -> w -> t become u -> t?
  bool allowed(int32_t u, int32_t w, int32_t t) const {
    if (u == t) return false;
    if (!topology_.isCompute(u) || !topology_.isCompute(t)) return true;
    auto from = static_cast<size_t>(topology_.rankOf(reversed_ ? t : u));
    auto to = static_cast<size_t>(topology_.rankOf(reversed_ ? u : t));
    return onRoute_[from * topology_.gpus().size() + to][static_cast<size_t>(w)];
  }

 private:
  const topo::Topology& topology_;
  bool reversed_;
  std::vector<std::vector<bool>> onRoute_;  // [from rank * n + to rank][vertex]
};

void shift(CapacityGraph& g, int32_t u, int32_t w, int32_t t, int64_t amount) {
  g.at(u, w) -= amount;
  g.at(w, t) -= amount;
  g.at(u, t) += amount;
}

// Splits u -> w -> t off by the largest amount <= gamma that keeps the condition.
int64_t splitOff(CapacityGraph& g, ConnectivityGuard& guard, int32_t u, int32_t w, int32_t t, int64_t gamma,
                 int64_t need) {
  shift(g, u, w, t, gamma);
  if (guard.admits(g, need, gamma)) return gamma;
  shift(g, u, w, t, -gamma);
  int64_t lo = 0, hi = gamma;  // lo is applied and admitted, hi is not admitted
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    shift(g, u, w, t, mid - lo);
    if (guard.admits(g, need, mid - lo)) {
      lo = mid;
    } else {
      shift(g, u, w, t, lo - mid);
      hi = mid;
    }
  }
  return lo;
}

// Splits off everything at w that the condition and the routes allow, in rounds of a quantum
// so that the capacity of w spreads evenly over its pairs.
void splitVertex(CapacityGraph& g, ConnectivityGuard& guard, const RouteFilter& routes, int32_t w, int64_t need,
                 const Deadline& deadline) {
  const int32_t n = g.vertices();
  for (bool progress = true; progress;) {
    progress = false;
    deadline.check("switch removal");
    // The quantum: an even share of the widest link into w over w's other neighbours.
    int64_t maxIn = 0;
    int64_t outs = 0;
    for (int32_t v = 0; v < n; ++v) {
      maxIn = std::max(maxIn, g.at(v, w));
      outs += g.at(w, v) > 0 ? 1 : 0;
    }
    const int64_t quantum = std::max<int64_t>(1, maxIn / std::max<int64_t>(1, outs - 1));
    for (int32_t u = 0; u < n; ++u)
      for (int32_t t = 0; t < n && g.at(u, w) > 0; ++t) {
        const int64_t gamma = std::min({quantum, g.at(u, w), g.at(w, t)});
        if (gamma <= 0 || !routes.allowed(u, w, t)) continue;
        if (splitOff(g, guard, u, w, t, gamma, need) > 0) progress = true;
      }
  }
}

// Forwarding vertices, fewest neighbours first (NICs before switches).
std::vector<int32_t> forwardingOrder(const topo::Topology& t) {
  std::vector<int32_t> order;
  for (int32_t v = 0; v < static_cast<int32_t>(t.vertices().size()); ++v)
    if (!t.isCompute(v)) order.push_back(v);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return t.outLinks(a).size() < t.outLinks(b).size(); });
  return order;
}

// The GPU part of g as a topology, for the exact allgather rate of what is left.
topo::Topology gpuTopology(const CapacityGraph& g) {
  topo::Topology t;
  for (int32_t r = 0; r < g.vertices(); ++r) {
    std::string name = "g";
    name += std::to_string(r);
    t.addVertex({.name = name, .kind = topo::VertexKind::Gpu, .box = 0, .where = {}});
  }
  for (int32_t a = 0; a < g.vertices(); ++a)
    for (int32_t b = 0; b < g.vertices(); ++b)
      if (a != b && g.at(a, b) > 0)
        t.addLink({.from = a, .to = b, .bandwidthGBps = g.at(a, b), .alphaUs = 0, .linkClass = {}, .where = {}});
  return t;
}

}  // namespace

LogicalGraph removeSwitches(const topo::Topology& topology, bool reversed, const Rational& rateGBps,
                            int64_t maxTreesPerRoot, const Deadline& deadline) {
  if (rateGBps <= 0) throw std::invalid_argument("the topology's GPUs are not connected to each other");
  std::vector<Rational> bandwidths;
  for (const topo::Link& l : topology.links()) bandwidths.push_back(l.bandwidthGBps);
  const int64_t k = treesPerRootFor(bandwidths, rateGBps, maxTreesPerRoot);
  const auto& gpus = topology.gpus();
  const auto ranks = static_cast<int32_t>(gpus.size());

  CapacityGraph full(static_cast<int32_t>(topology.vertices().size()));
  for (const topo::Link& l : topology.links())
    full.at(reversed ? l.to : l.from, reversed ? l.from : l.to) += scaled(l.bandwidthGBps, rateGBps, k);
  for (int32_t v : gpus) full.fromSource(v) = k;
  const int64_t need = k * ranks;
  ConnectivityGuard guard(full, gpus);
  if (!guard.admits(full, need, 0)) throw std::logic_error("switch removal: the rate exceeds the cut bound");
  const RouteFilter routes(topology, reversed);
  for (int32_t w : forwardingOrder(topology)) splitVertex(full, guard, routes, w, need, deadline);

  LogicalGraph out;
  out.graph = CapacityGraph(ranks);
  for (int32_t a = 0; a < ranks; ++a) {
    out.graph.fromSource(a) = k;
    for (int32_t b = 0; b < ranks; ++b)
      if (a != b) out.graph.at(a, b) = full.at(gpus[static_cast<size_t>(a)], gpus[static_cast<size_t>(b)]);
  }
  out.treesPerRoot = k;
  ConnectivityGuard check(out.graph, [&] {
    std::vector<int32_t> all(static_cast<size_t>(ranks));
    std::iota(all.begin(), all.end(), 0);
    return all;
  }());
  const bool complete = check.admits(out.graph, need, 0);
  out.maxFlows = guard.maxFlows() + check.maxFlows();
  if (complete) return out;

  // Some capacity could not be split along routes: pack at the rate of what is left.
  const Rational left = allGatherRate(gpuTopology(out.graph), false);
  if (left <= 0) throw std::invalid_argument("the GPUs are not connected along the runtime's routes");
  std::vector<Rational> caps;
  for (int32_t a = 0; a < ranks; ++a)
    for (int32_t b = 0; b < ranks; ++b)
      if (out.graph.at(a, b) > 0) caps.emplace_back(out.graph.at(a, b));
  const int64_t k2 = treesPerRootFor(caps, left, maxTreesPerRoot);
  for (int32_t a = 0; a < ranks; ++a) {
    out.graph.fromSource(a) = k2;
    for (int32_t b = 0; b < ranks; ++b)
      if (out.graph.at(a, b) > 0) out.graph.at(a, b) = scaled(out.graph.at(a, b), left, k2);
  }
  out.treesPerRoot = k2;
  return out;
}

}  // namespace ccforge::synth::trees
