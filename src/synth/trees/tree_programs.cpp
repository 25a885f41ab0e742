#include "synth/trees/tree_programs.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace ccforge::synth::trees {
namespace {

using ir::Buffer;

// One tree with the pieces of its root's chunk it carries.
struct PlacedTree {
  const Arborescence* tree = nullptr;
  int32_t first = 0;  // piece index within the root's chunk
  int32_t count = 0;
  std::vector<int32_t> depth;  // per edge: depth of its child
};

int32_t piecesPerRoot(const Packing& a, const Packing& b) {
  return static_cast<int32_t>(std::lcm(a.treesPerRoot, b.treesPerRoot));
}

std::vector<PlacedTree> place(const Packing& packing, int32_t pieces) {
  const auto scale = static_cast<int32_t>(pieces / packing.treesPerRoot);
  std::vector<PlacedTree> placed;
  std::map<int32_t, int32_t> next;  // root -> next free piece
  for (const Arborescence& t : packing.trees) {
    PlacedTree p{.tree = &t, .first = next[t.root], .count = static_cast<int32_t>(t.multiplicity) * scale, .depth = {}};
    next[t.root] += p.count;
    std::map<int32_t, int32_t> depthOf{{t.root, 0}};
    for (auto [u, w] : t.edges) p.depth.push_back(depthOf[w] = depthOf[u] + 1);
    placed.push_back(std::move(p));
  }
  return placed;
}

int32_t maxDepth(const std::vector<PlacedTree>& placed) {
  int32_t d = 0;
  for (const PlacedTree& p : placed)
    for (int32_t e : p.depth) d = std::max(d, e);
  return d;
}

// Broadcast along out-trees within `buffer`, level by level.
void broadcast(dsl::Program& p, const std::vector<PlacedTree>& placed, int32_t pieces, Buffer buffer) {
  for (int32_t d = 1, last = maxDepth(placed); d <= last; ++d)
    for (const PlacedTree& t : placed)
      for (size_t e = 0; e < t.tree->edges.size(); ++e) {
        if (t.depth[e] != d) continue;
        auto [u, w] = t.tree->edges[e];
        const int32_t index = t.tree->root * pieces + t.first;
        p.chunk(u, buffer, index, t.count).copy(w, buffer, index);
      }
}

// Reduction along in-trees into the input buffer, deepest level first.
void reduce(dsl::Program& p, const std::vector<PlacedTree>& placed, int32_t pieces) {
  for (int32_t d = maxDepth(placed); d >= 1; --d)
    for (const PlacedTree& t : placed)
      for (size_t e = 0; e < t.tree->edges.size(); ++e) {
        if (t.depth[e] != d) continue;
        auto [parent, child] = t.tree->edges[e];
        const int32_t index = t.tree->root * pieces + t.first;
        p.chunk(parent, Buffer::Input, index, t.count).reduce(p.chunk(child, Buffer::Input, index, t.count));
      }
}

dsl::CollectiveBinding binding(CollectiveType type, int32_t ranks, int32_t chunkFactor, CallForm form) {
  return {.type = type, .ranks = ranks, .chunkFactor = chunkFactor, .form = form};
}

}  // namespace

dsl::Program allGatherProgram(const std::string& name, const Packing& trees, int32_t channels, ir::Protocol protocol) {
  const int32_t pieces = piecesPerRoot(trees, trees);
  dsl::Program p(name, binding(CollectiveType::AllGather, trees.vertices, pieces, CallForm::OutOfPlace),
                 {.protocol = protocol, .instances = 1});
  p.parallelize(channels, [&] {
    for (int32_t r = 0; r < trees.vertices; ++r) p.chunk(r, Buffer::Input, 0, pieces).copy(r, Buffer::Output, r * pieces);
    broadcast(p, place(trees, pieces), pieces, Buffer::Output);
  });
  return p;
}

dsl::Program reduceScatterProgram(const std::string& name, const Packing& inTrees, int32_t channels,
                                  ir::Protocol protocol) {
  const int32_t pieces = piecesPerRoot(inTrees, inTrees);
  dsl::Program p(name, binding(CollectiveType::ReduceScatter, inTrees.vertices, pieces, CallForm::OutOfPlace),
                 {.protocol = protocol, .instances = 1});
  p.parallelize(channels, [&] {
    reduce(p, place(inTrees, pieces), pieces);
    for (int32_t r = 0; r < inTrees.vertices; ++r)
      p.chunk(r, Buffer::Input, r * pieces, pieces).copy(r, Buffer::Output, 0);
  });
  return p;
}

dsl::Program allReduceProgram(const std::string& name, const Packing& inTrees, const Packing& outTrees,
                              int32_t channels, ir::Protocol protocol) {
  const int32_t pieces = piecesPerRoot(inTrees, outTrees);
  dsl::Program p(name, binding(CollectiveType::AllReduce, inTrees.vertices, inTrees.vertices * pieces, CallForm::InPlace),
                 {.protocol = protocol, .instances = 1});
  p.parallelize(channels, [&] {
    reduce(p, place(inTrees, pieces), pieces);
    broadcast(p, place(outTrees, pieces), pieces, Buffer::Input);
  });
  return p;
}

}  // namespace ccforge::synth::trees
