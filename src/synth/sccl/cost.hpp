// The alpha-beta cost of synthesized points, T = S * alpha + (R/C) * m * beta with m the bound
// chunk (M/N, or M for broadcast and reduce; docs/bounds.md), and the range of sizes M on which
// each point of a frontier is the cheapest.
#pragma once

#include <optional>
#include <vector>

#include "semantics/collective.hpp"
#include "synth/deploy/cost_envelope.hpp"
#include "topology/rational.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth::sccl {

struct CostModel {
  double alphaUs = 0;            // per step: the largest link alpha of the topology
  double betaUsPerByte = 0;      // per byte over one unit link: 1 / unit bandwidth
  double bytesPerChunkUnit = 1;  // m = M / this (N, or 1 for broadcast and reduce)
};

CostModel costModel(const topo::Topology& topology, semantics::CollectiveType collective);

struct CostPoint {
  int32_t steps = 0;
  topo::Rational roundsPerChunk;
};

// Time in µs of a point for M bytes.
double costUs(const CostModel& model, const CostPoint& point, double bytes);
// The same as a curve of time against M.
deploy::CostCurve costCurve(const CostModel& model, const CostPoint& point);

// Per point: [low, high) in bytes of M where no other point is cheaper (high nullopt: no upper
// end; where two cost the same the one with the lower R/C takes the size, and of two equal
// points the earlier); nullopt when no such size exists.
std::vector<std::optional<deploy::SizeRange>> sizeWindows(const CostModel& model, const std::vector<CostPoint>& points);

}  // namespace ccforge::synth::sccl
