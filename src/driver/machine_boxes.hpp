// The box layout `verify` checks a program under when it is meant for a known machine: rank r
// is the machine's GPU r (the order its spec declares them).
#pragma once

#include "topology/topology.hpp"
#include "verify/box_layout.hpp"

namespace ccforge::driver {

verify::BoxLayout boxLayoutOf(const topo::Topology& machine);

}  // namespace ccforge::driver
