// Graphviz DOT for a topology: GPUs as boxes, switches as diamonds, NICs as hexagons,
// boxes as clusters; a pair of opposite links with equal attributes is drawn as one edge.
#pragma once

#include <string>

#include "topology/topology.hpp"

namespace ccforge::viz {

std::string topologyToDot(const topo::Topology& topology);

}  // namespace ccforge::viz
