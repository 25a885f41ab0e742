// Where each IR connection runs on a topology: rank r is the topology's r-th GPU, and a
// connection takes a direct link or a route through switches and NICs (never through
// another GPU: GPUs do not forward in hardware).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "topology/topology.hpp"

namespace ccforge::topo {

struct Route {
  std::vector<int32_t> links;  // link ids from the sender's GPU to the receiver's
  double alphaUs = 0;          // sum of the links' alphas
  topo::LinkClass linkClass = topo::LinkClass::NVLink;  // the slowest kind on the way
};

// The route with the fewest links (the first found, in link order, among equals); nullopt
// when the receiver cannot be reached through switches and NICs alone.
std::optional<Route> routeBetween(const topo::Topology& topology, int32_t fromRank, int32_t toRank);

}  // namespace ccforge::topo
