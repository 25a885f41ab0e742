#include "verify/smt/sync_graph.hpp"

namespace ccforge::verify::smt {

SyncGraph::SyncGraph(const semantics::LoadedProgram& index, const verify::BackPressure& backPressure)
    : index_(index), graph_(index, backPressure) {
  for (uint32_t s : graph_.order())
    graph_.forEachPredecessor(s, [&](uint32_t from, bool strict) { edges_.push_back({from, s, strict}); });
  closure();
}

uint32_t SyncGraph::senderOf(uint32_t receiveStep) const {
  const int32_t c = index_.recvConnection(index_.tbOfStep(receiveStep));
  if (c < 0) return semantics::kNoStep;
  const auto& sends = index_.connections()[static_cast<size_t>(c)].sendSteps;
  const uint32_t k = index_.recvPosition(receiveStep);
  return k < sends.size() ? sends[k] : semantics::kNoStep;
}

// Reverse topological order: reach(x) = union over edges x->y of {y} + reach(y);
// strict(x) = union over strict edges of {y} + reach(y), over non-strict ones of strict(y).
void SyncGraph::closure() {
  const size_t n = graph_.order().size(), words = (n + 63) / 64;
  std::vector<std::vector<uint64_t>> reach(n, std::vector<uint64_t>(words, 0));
  strictReach_.assign(n, std::vector<uint64_t>(words, 0));
  std::vector<std::vector<SyncEdge>> outOf(n);
  for (const SyncEdge& e : edges_) outOf[graph_.position(e.from)].push_back(e);
  for (size_t i = n; i-- > 0;) {
    for (const SyncEdge& e : outOf[i]) {
      const size_t j = graph_.position(e.to);
      reach[i][j / 64] |= uint64_t{1} << (j % 64);
      for (size_t w = 0; w < words; ++w) {
        reach[i][w] |= reach[j][w];
        strictReach_[i][w] |= e.strict ? reach[j][w] : strictReach_[j][w];
      }
      if (e.strict) strictReach_[i][j / 64] |= uint64_t{1} << (j % 64);
    }
  }
}

bool SyncGraph::strictlyBefore(uint32_t a, uint32_t b) const {
  if (!runs(a) || !runs(b)) return false;
  const uint32_t j = graph_.position(b);
  return (strictReach_[graph_.position(a)][j / 64] >> (j % 64)) & 1;
}

}  // namespace ccforge::verify::smt
