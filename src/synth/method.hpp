// Which synthesis method a request gets, and the sizes refused before any work (docs/synth.md,
// docs/limits.md): SMT synthesis in SCCL's model on one box, tree packing with hierarchical
// composition on machines of several.
#pragma once

#include <optional>

#include "topology/topology.hpp"

namespace ccforge::synth {

enum class Method : uint8_t { Smt, Trees };

// nullopt (auto): trees on machines of several boxes, SMT on one.
Method methodFor(const topo::Topology& topology, std::optional<Method> requested);

// The instance an SMT request names, each part optional (a search when absent).
struct InstanceRequest {
  std::optional<int> chunks, steps, rounds;
};

// Throws LimitExceeded when the topology has more GPUs than the method synthesizes for, or the
// instance is over the SMT encoding's work limit, and std::invalid_argument for an instance part
// out of range.
void checkRequestSize(const topo::Topology& topology, Method method, const InstanceRequest& instance);

}  // namespace ccforge::synth
