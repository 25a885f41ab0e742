// Judging an emitted program by the tools that did not make it: the verifier (every check)
// and the simulator (algbw at 1 GiB on the topology, and on request its time over a range of
// sizes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "ir/model.hpp"
#include "topology/topology.hpp"
#include "synth/deploy/cost_envelope.hpp"
#include "verify/report.hpp"

namespace ccforge::synth::trees {

inline constexpr uint64_t kEvaluationBytes = uint64_t{1} << 30;
// Where programs are compared against each other: 1 KiB by factors of 4 to `largest` (a power
// of 4 times 1 KiB).
std::vector<uint64_t> comparisonSizes(uint64_t largest = kEvaluationBytes);

struct TreeEvaluation {
  verify::FileReport report;
  uint64_t bytes = kEvaluationBytes;  // the size of the headline figures
  double simulatedAlgbwGBps = 0;      // at `bytes`
  double simulatedTimeUs = 0;
  std::optional<deploy::CostCurve> simulatedCost;  // over comparisonSizes(), when asked for
};

// Throws what sim::simulate throws when the program cannot run on the topology. The cost
// curve, when asked for, covers comparisonSizes(max(bytes, curveUpTo)).
TreeEvaluation evaluateProgram(const ir::Algorithm& algorithm, const std::string& source,
                               const topo::Topology& topology, semantics::CollectiveType collective,
                               bool withCostCurve = false, uint64_t bytes = kEvaluationBytes,
                               uint64_t curveUpTo = kEvaluationBytes);

}  // namespace ccforge::synth::trees
