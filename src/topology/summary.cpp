#include "topology/summary.hpp"

#include <map>

#include "topology/distances.hpp"

namespace ccforge::topo {
namespace {

BandwidthRange rangeOver(const Topology& t, bool outgoing) {
  BandwidthRange range;
  bool first = true;
  for (int32_t g : t.gpus()) {
    Rational sum = 0;
    for (int32_t id : outgoing ? t.outLinks(g) : t.inLinks(g)) sum += t.links()[static_cast<size_t>(id)].bandwidthGBps;
    if (first || sum < range.min) range.min = sum;
    if (first || sum > range.max) range.max = sum;
    first = false;
  }
  return range;
}

}  // namespace

TopologySummary summarize(const Topology& t) {
  TopologySummary s;
  for (const Vertex& v : t.vertices()) {
    if (v.kind == VertexKind::Gpu) ++s.gpus;
    if (v.kind == VertexKind::Switch) ++s.switches;
    if (v.kind == VertexKind::Nic) ++s.nics;
  }
  s.boxes = t.boxCount();
  s.links = static_cast<int32_t>(t.links().size());
  s.gpuEgress = rangeOver(t, true);
  s.gpuIngress = rangeOver(t, false);
  auto distances = stepDistances(t);
  s.diameter = diameter(distances);
  s.unreachable = firstUnreachablePair(distances);
  s.weighted = automorphisms(t, Weighting::Weighted);
  s.unweighted = automorphisms(t, Weighting::Unweighted);
  std::map<int32_t, std::vector<int32_t>> orbits;
  for (int32_t g : t.gpus()) orbits[s.weighted.vertexOrbit[static_cast<size_t>(g)]].push_back(t.rankOf(g));
  for (auto& [root, ranks] : orbits) s.gpuOrbits.push_back(std::move(ranks));
  return s;
}

}  // namespace ccforge::topo
