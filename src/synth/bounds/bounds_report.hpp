// The report of `ccforge bounds` (docs/bounds.md): a table for people, JSON for scripts.
#pragma once

#include <string>
#include <vector>

#include "synth/bounds/bounds.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth {

std::string boundsText(const topo::Topology& t, const std::vector<CollectiveBound>& bounds);
std::string boundsJson(const topo::Topology& t, const std::vector<CollectiveBound>& bounds);

}  // namespace ccforge::synth
