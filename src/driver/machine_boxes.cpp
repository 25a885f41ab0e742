#include "driver/machine_boxes.hpp"

namespace ccforge::driver {

verify::BoxLayout boxLayoutOf(const topo::Topology& machine) {
  std::vector<int32_t> boxOfRank;
  boxOfRank.reserve(machine.gpus().size());
  for (int32_t r = 0; r < static_cast<int32_t>(machine.gpus().size()); ++r) boxOfRank.push_back(machine.boxOfRank(r));
  return verify::BoxLayout::ofRanks(std::move(boxOfRank), machine.name);
}

}  // namespace ccforge::driver
