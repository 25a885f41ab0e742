// The report of `ccforge simulate FILE TOPOLOGY --sizes` (docs/simulate.md): a table for people,
// JSON for scripts. `file` is the program's path as the user gave it.
#pragma once

#include <string>

#include "ir/model.hpp"
#include "sim/arch.hpp"
#include "sim/simulate.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim {

std::string simulationText(const std::string& file, const ir::Algorithm& a, const topo::Topology& t, Arch arch,
                           const SimulationReport& r);
std::string simulationJson(const std::string& file, const ir::Algorithm& a, const topo::Topology& t, Arch arch,
                           const SimulationReport& r);

}  // namespace ccforge::sim
