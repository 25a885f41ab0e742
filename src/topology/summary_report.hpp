// The reports of `ccforge topo show` and `topo list` (docs/topologies.md): a topology's summary
// (summary.hpp) as text or JSON, and the catalog one line per topology.
#pragma once

#include <string>

#include "topology/summary.hpp"
#include "topology/topology.hpp"

namespace ccforge::topo {

std::string summaryText(const Topology& t, const TopologySummary& s);
std::string summaryJson(const Topology& t, const TopologySummary& s);
// "NAME: N GPUs. DESCRIPTION" per catalog entry.
std::string catalogText();

}  // namespace ccforge::topo
