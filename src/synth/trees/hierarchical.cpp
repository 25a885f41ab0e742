#include "synth/trees/hierarchical.hpp"

#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "topology/routes.hpp"

namespace ccforge::synth::trees {

std::vector<std::vector<int32_t>> gpusByBox(const topo::Topology& topology) {
  std::map<int32_t, std::vector<int32_t>> boxes;
  const auto ranks = static_cast<int32_t>(topology.gpus().size());
  for (int32_t r = 0; r < ranks; ++r)
    boxes[topology.vertices()[static_cast<size_t>(topology.gpus()[static_cast<size_t>(r)])].box].push_back(r);
  if (boxes.size() < 2)
    throw std::invalid_argument("the hierarchical and two-step compositions need at least two boxes");
  const size_t perBox = boxes.begin()->second.size();
  std::vector<std::vector<int32_t>> box;
  for (auto& [id, members] : boxes) {
    if (members.size() != perBox)
      throw std::invalid_argument("the hierarchical and two-step compositions need boxes of equally many GPUs");
    box.push_back(members);
  }
  return box;
}

std::vector<RailShape> railShapes(const topo::Topology& topology, int32_t peersPerChannel) {
  const std::vector<std::vector<int32_t>> box = gpusByBox(topology);
  const auto boxCount = static_cast<int32_t>(box.size());
  if (boxCount == 2) return {RailShape::Star};
  std::vector<RailShape> shapes;
  if (static_cast<int32_t>(box.front().size()) - 1 + boxCount - 1 <= peersPerChannel) shapes.push_back(RailShape::Star);
  shapes.push_back(RailShape::Chain);
  return shapes;
}

Packing hierarchicalTrees(const topo::Topology& topology, RailShape shape) {
  const std::vector<std::vector<int32_t>> box = gpusByBox(topology);
  const auto ranks = static_cast<int32_t>(topology.gpus().size());
  const size_t perBox = box.front().size();
  std::map<std::pair<int32_t, int32_t>, bool> routed;  // every tree uses the same few pairs
  auto reachable = [&](int32_t a, int32_t b) {
    const auto [it, inserted] = routed.try_emplace({a, b}, false);
    if (inserted) it->second = topo::routeBetween(topology, a, b).has_value();
    return it->second;
  };
  const auto boxCount = static_cast<int32_t>(box.size());
  const int32_t forward = boxCount / 2;  // boxes the chain reaches ahead; the rest behind
  Packing p{.vertices = ranks, .treesPerRoot = 1, .trees = {}, .maxFlows = 0};
  for (int32_t b = 0; b < boxCount; ++b)
    for (size_t i = 0; i < perBox; ++i) {
      Arborescence t{.root = box[static_cast<size_t>(b)][i], .multiplicity = 1, .edges = {}};
      auto member = [&](int32_t inBox) {
        return box[static_cast<size_t>((inBox % boxCount + boxCount) % boxCount)][i];
      };
      auto spread = [&](int32_t from, int32_t inBox) {
        for (size_t j = 0; j < perBox; ++j) {
          if (j == i) continue;
          const int32_t to = box[static_cast<size_t>(inBox)][j];
          if (!reachable(from, to))
            throw std::invalid_argument("hierarchical composition: GPUs of one box cannot reach each other directly");
          t.edges.emplace_back(from, to);
        }
      };
      auto rail = [&](int32_t from, int32_t to) {
        if (!reachable(from, to))
          throw std::invalid_argument("hierarchical composition: GPUs of one rail cannot reach each other");
        t.edges.emplace_back(from, to);
      };
      spread(t.root, b);
      if (shape == RailShape::Star) {
        for (int32_t other = 0; other < boxCount; ++other)
          if (other != b) rail(t.root, member(other));
      } else {
        for (int32_t k = 1; k <= forward; ++k) rail(member(b + k - 1), member(b + k));
        for (int32_t k = 1; k < boxCount - forward; ++k) rail(member(b - k + 1), member(b - k));
      }
      for (int32_t other = 0; other < boxCount; ++other)
        if (other != b) spread(member(other), other);
      p.trees.push_back(std::move(t));
    }
  return p;
}

}  // namespace ccforge::synth::trees
