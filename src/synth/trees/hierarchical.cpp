#include "synth/trees/hierarchical.hpp"

#include <map>
#include <stdexcept>
#include <vector>

#include "topology/routes.hpp"

namespace ccforge::synth::trees {

Packing hierarchicalTrees(const topo::Topology& topology) {
  // GPUs by box, in rank order.
  std::map<int32_t, std::vector<int32_t>> boxes;
  const auto ranks = static_cast<int32_t>(topology.gpus().size());
  for (int32_t r = 0; r < ranks; ++r)
    boxes[topology.vertices()[static_cast<size_t>(topology.gpus()[static_cast<size_t>(r)])].box].push_back(r);
  if (boxes.size() < 2) throw std::invalid_argument("hierarchical composition needs at least two boxes");
  const size_t perBox = boxes.begin()->second.size();
  std::vector<std::vector<int32_t>> box;
  for (auto& [id, members] : boxes) {
    if (members.size() != perBox)
      throw std::invalid_argument("hierarchical composition needs boxes of equally many GPUs");
    box.push_back(members);
  }
  auto reachable = [&](int32_t a, int32_t b) { return topo::routeBetween(topology, a, b).has_value(); };
  Packing p{.vertices = ranks, .treesPerRoot = 1, .trees = {}, .maxFlows = 0};
  for (size_t b = 0; b < box.size(); ++b)
    for (size_t i = 0; i < perBox; ++i) {
      Arborescence t{.root = box[b][i], .multiplicity = 1, .edges = {}};
      auto spread = [&](int32_t from, size_t inBox) {
        for (size_t j = 0; j < perBox; ++j) {
          if (j == i) continue;
          if (!reachable(from, box[inBox][j]))
            throw std::invalid_argument("hierarchical composition: GPUs of one box cannot reach each other directly");
          t.edges.emplace_back(from, box[inBox][j]);
        }
      };
      spread(t.root, b);
      for (size_t other = 0; other < box.size(); ++other) {
        if (other == b) continue;
        if (!reachable(t.root, box[other][i]))
          throw std::invalid_argument("hierarchical composition: GPUs of one rail cannot reach each other");
        t.edges.emplace_back(t.root, box[other][i]);
      }
      for (size_t other = 0; other < box.size(); ++other)
        if (other != b) spread(box[other][i], other);
      p.trees.push_back(std::move(t));
    }
  return p;
}

}  // namespace ccforge::synth::trees
