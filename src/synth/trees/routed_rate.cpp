#include "synth/trees/routed_rate.hpp"

#include <map>
#include <stdexcept>
#include <string>

#include "topology/routes.hpp"

namespace ccforge::synth::trees {

topo::Rational routedRate(const topo::Topology& topology, const Packing& trees, bool reversed) {
  std::map<int32_t, int64_t> load;  // link -> pieces
  std::map<std::pair<int32_t, int32_t>, topo::Route> routes;
  for (const Arborescence& t : trees.trees)
    for (auto [parent, child] : t.edges) {
      const int32_t from = reversed ? child : parent, to = reversed ? parent : child;
      auto it = routes.find({from, to});
      if (it == routes.end()) {
        std::optional<topo::Route> r = topo::routeBetween(topology, from, to);
        if (!r) throw std::invalid_argument("no route from rank " + std::to_string(from) + " to " + std::to_string(to));
        it = routes.emplace(std::make_pair(from, to), *r).first;
      }
      for (int32_t l : it->second.links) load[l] += t.multiplicity;
    }
  topo::Rational rate = -1;
  for (auto [l, pieces] : load) {
    const topo::Rational r = topology.links()[static_cast<size_t>(l)].bandwidthGBps * trees.treesPerRoot / pieces;
    if (rate < 0 || r < rate) rate = r;
  }
  return rate;
}

}  // namespace ccforge::synth::trees
