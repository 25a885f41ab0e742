// Graphviz DOT for a topology: GPUs as boxes, switches as diamonds, NICs as hexagons,
// boxes as clusters; a pair of opposite links with equal attributes is drawn as one edge.
#pragma once

#include <string>

#include "semantics/topology/topology.hpp"

namespace ccforge::topo {

std::string topologyToDot(const Topology& topology);

}  // namespace ccforge::topo
