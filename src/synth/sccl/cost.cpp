#include "synth/sccl/cost.hpp"

#include <algorithm>

namespace ccforge::synth::sccl {

CostModel costModel(const topo::Topology& topology, semantics::CollectiveType collective) {
  CostModel m;
  for (const topo::Link& l : topology.links()) m.alphaUs = std::max(m.alphaUs, l.alphaUs);
  m.betaUsPerByte = 1.0 / (topo::toDouble(topology.unitGBps) * 1e3);  // 1 GB/s = 1e3 bytes/µs
  const bool whole =
      collective == semantics::CollectiveType::Broadcast || collective == semantics::CollectiveType::Reduce;
  m.bytesPerChunkUnit = whole ? 1.0 : static_cast<double>(topology.gpus().size());
  return m;
}

double costUs(const CostModel& model, const CostPoint& point, double bytes) {
  return costCurve(model, point).at(bytes);
}

deploy::CostCurve costCurve(const CostModel& model, const CostPoint& point) {
  return deploy::CostCurve::affine(point.steps * model.alphaUs, topo::toDouble(point.roundsPerChunk) *
                                                                    model.betaUsPerByte / model.bytesPerChunkUnit);
}

std::vector<std::optional<deploy::SizeRange>> sizeWindows(const CostModel& model,
                                                          const std::vector<CostPoint>& points) {
  std::vector<deploy::CostCurve> curves;
  for (const CostPoint& p : points) curves.push_back(costCurve(model, p));
  return deploy::fastestRanges(curves, std::vector<std::optional<double>>(points.size()));
}

}  // namespace ccforge::synth::sccl
