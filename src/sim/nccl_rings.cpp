#include "sim/nccl_rings.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "sim/nccl_machine.hpp"
#include "sim/ring_packing.hpp"

namespace ccforge::sim {
namespace {

// A box's rings in local indexes: rank order where a switch joins the GPUs, else the most
// Hamiltonian cycles its links' capacity holds.
std::vector<std::vector<int32_t>> boxCycles(const NcclBox& box, int32_t channels) {
  std::vector<int32_t> order(box.ranks.size());
  std::iota(order.begin(), order.end(), 0);
  if (box.switched || box.ranks.size() <= 2) return {order};
  const std::vector<std::vector<int32_t>> rings = packRings(box.units, channels);
  return rings.empty() ? std::vector<std::vector<int32_t>>{order} : rings;
}

}  // namespace

std::vector<std::vector<int32_t>> ncclRings(const topo::Topology& t, int32_t channels) {
  const NcclMachine m = ncclMachineOf(t, archOf(t));
  const std::vector<NcclBox> boxes = ncclBoxes(t, m.nodes == 1 ? m.bwIntra : m.bwInter, m.arch);
  std::vector<std::vector<std::vector<int32_t>>> cycles;
  for (const NcclBox& b : boxes) cycles.push_back(boxCycles(b, channels));
  std::vector<std::vector<int32_t>> rings;
  for (int32_t c = 0; c < channels; ++c) {
    std::vector<int32_t> ring;
    for (size_t b = 0; b < boxes.size(); ++b) {
      const std::vector<int32_t>& cycle = cycles[b][static_cast<size_t>(c) % cycles[b].size()];
      const size_t start = boxes.size() > 1 ? static_cast<size_t>(c) % cycle.size() : 0;
      for (size_t k = 0; k < cycle.size(); ++k)
        ring.push_back(boxes[b].ranks[static_cast<size_t>(cycle[(start + k) % cycle.size()])]);
    }
    rings.push_back(std::move(ring));
  }
  return rings;
}

}  // namespace ccforge::sim
