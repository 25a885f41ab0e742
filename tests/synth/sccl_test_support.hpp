// Shared by the SMT synthesis tests: small topologies from the generator families, and search
// options with limits generous enough for a loaded machine.
#pragma once

#include "semantics/topology/families.hpp"
#include "synth/sccl/search.hpp"

namespace ccforge::testing {

inline topo::Topology family(topo::Family f, int32_t n) { return topo::familyTopology(f, {n}); }

inline synth::sccl::SynthOptions quiet() {
  synth::sccl::SynthOptions o;
  o.instanceTimeoutSeconds = 60;
  o.totalTimeoutSeconds = 120;
  return o;
}

}  // namespace ccforge::testing
