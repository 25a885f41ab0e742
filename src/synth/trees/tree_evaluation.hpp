// Judging an emitted program by the tools that did not make it: the verifier (every check)
// and the simulator (algbw at one size on the topology).
#pragma once

#include <cstdint>
#include <string>

#include "semantics/collective.hpp"
#include "ir/model.hpp"
#include "topology/topology.hpp"
#include "verify/report.hpp"

namespace ccforge::synth::trees {

inline constexpr uint64_t kEvaluationBytes = uint64_t{1} << 30;

struct TreeEvaluation {
  verify::FileReport report;
  double simulatedAlgbwGBps = 0;
  double simulatedTimeUs = 0;
};

// Throws what sim::simulate throws when the program cannot run on the topology.
TreeEvaluation evaluateProgram(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                               CollectiveType collective, uint64_t bytes = kEvaluationBytes);

}  // namespace ccforge::synth::trees
