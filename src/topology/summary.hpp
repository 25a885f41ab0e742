// What `ccforge topo show` reports about a topology.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "topology/automorphisms.hpp"
#include "topology/topology.hpp"

namespace ccforge::topo {

struct BandwidthRange {
  Rational min;
  Rational max;
};

struct TopologySummary {
  int32_t gpus = 0;
  int32_t switches = 0;
  int32_t nics = 0;
  int32_t boxes = 0;
  int32_t links = 0;
  BandwidthRange gpuEgress;  // over GPUs: the sum of a GPU's outgoing link bandwidths
  BandwidthRange gpuIngress;
  std::optional<int32_t> diameter;                         // in steps; nullopt when a GPU cannot reach another
  std::optional<std::pair<int32_t, int32_t>> unreachable;  // first (from rank, to rank)
  AutomorphismGroup weighted;
  AutomorphismGroup unweighted;
  std::vector<std::vector<int32_t>> gpuOrbits;  // ranks, under the weighted group
};

TopologySummary summarize(const Topology& topology);

}  // namespace ccforge::topo
