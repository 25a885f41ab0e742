#include "synth/sccl/cost.hpp"

#include <algorithm>

namespace ccforge::synth::sccl {

CostModel costModel(const topo::Topology& topology, CollectiveType collective) {
  CostModel m;
  for (const topo::Link& l : topology.links()) m.alphaUs = std::max(m.alphaUs, l.alphaUs);
  m.betaUsPerByte = 1.0 / (topo::toDouble(topology.unitGBps) * 1e3);  // 1 GB/s = 1e3 bytes/µs
  const bool whole = collective == CollectiveType::Broadcast || collective == CollectiveType::Reduce;
  m.bytesPerChunkUnit = whole ? 1.0 : static_cast<double>(topology.gpus().size());
  return m;
}

double costUs(const CostModel& model, const CostPoint& point, double bytes) {
  return point.steps * model.alphaUs +
         topo::toDouble(point.roundsPerChunk) * (bytes / model.bytesPerChunkUnit) * model.betaUsPerByte;
}

std::vector<std::optional<SizeWindow>> sizeWindows(const CostModel& model, const std::vector<CostPoint>& points) {
  std::vector<std::optional<SizeWindow>> out;
  const double perByte = model.betaUsPerByte / model.bytesPerChunkUnit;
  for (size_t i = 0; i < points.size(); ++i) {
    SizeWindow w;
    bool empty = false;
    const double si = points[i].steps, ri = topo::toDouble(points[i].roundsPerChunk);
    for (size_t j = 0; j < points.size() && !empty; ++j) {
      if (j == i) continue;
      const double sj = points[j].steps, rj = topo::toDouble(points[j].roundsPerChunk);
      // T_i(M) <= T_j(M)  <=>  (ri - rj) * perByte * M <= (sj - si) * alpha
      const double slope = (ri - rj) * perByte, room = (sj - si) * model.alphaUs;
      if (slope == 0) {
        if (room < 0 || (room == 0 && j < i)) empty = true;  // ties go to the earlier point
      } else if (slope > 0) {
        const double limit = room / slope;
        if (limit <= 0) empty = true;
        w.high = w.high ? std::min(*w.high, limit) : limit;
      } else {
        w.low = std::max(w.low, room / slope);
      }
    }
    if (!empty && w.high && *w.high <= w.low) empty = true;
    out.push_back(empty ? std::nullopt : std::optional<SizeWindow>(w));
  }
  return out;
}

}  // namespace ccforge::synth::sccl
