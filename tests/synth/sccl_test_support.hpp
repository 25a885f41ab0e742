// Shared by the SMT synthesis tests: small topologies from the generator families, and search
// options with limits generous enough for a loaded machine.
#pragma once

#include <tuple>
#include <vector>

#include "topology/families.hpp"
#include "synth/sccl/search.hpp"

namespace ccforge::testing {

inline topo::Topology family(topo::Family f, int32_t n) { return topo::familyTopology(f, {n}); }

inline synth::sccl::SynthOptions quiet() {
  synth::sccl::SynthOptions o;
  o.instanceTimeoutSeconds = 60;
  o.totalTimeoutSeconds = 120;
  return o;
}

// The frontier as (chunks, steps, rounds) points, in order.
inline std::vector<std::tuple<int32_t, int32_t, int32_t>> points(const synth::sccl::SearchResult& r) {
  std::vector<std::tuple<int32_t, int32_t, int32_t>> out;
  for (const synth::sccl::InstanceResult& p : r.frontier) out.emplace_back(p.chunks, p.steps, p.rounds);
  return out;
}

}  // namespace ccforge::testing
