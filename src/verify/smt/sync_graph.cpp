#include "semantics/step_kinds.hpp"
#include "verify/smt/sync_graph.hpp"

#include <deque>

namespace ccforge::smt {

SyncGraph::SyncGraph(const LoadedProgram& index, uint32_t backPressure) : index_(index), backPressure_(backPressure) {
  const uint32_t n = index.stepCount();
  std::vector<std::vector<SyncEdge>> in(n);
  std::vector<std::vector<uint32_t>> out(n);
  std::vector<uint32_t> missing(n, 0);
  std::deque<uint32_t> ready;
  for (uint32_t s = 0; s < n; ++s) {
    bool satisfiable = true;
    addEdges(s, in[s], satisfiable);
    missing[s] = static_cast<uint32_t>(in[s].size()) + (satisfiable ? 0 : 1);
    for (const SyncEdge& e : in[s]) out[e.from].push_back(s);
    if (missing[s] == 0) ready.push_back(s);
  }
  runs_.assign(n, false);
  position_.assign(n, UINT32_MAX);
  while (!ready.empty()) {
    const uint32_t s = ready.front();
    ready.pop_front();
    runs_[s] = true;
    position_[s] = static_cast<uint32_t>(order_.size());
    order_.push_back(s);
    for (const SyncEdge& e : in[s]) edges_.push_back(e);
    for (uint32_t t : out[s])
      if (--missing[t] == 0) ready.push_back(t);
  }
  closure();
}

void SyncGraph::addEdges(uint32_t s, std::vector<SyncEdge>& into, bool& satisfiable) const {
  const int32_t tb = index_.tbOfStep(s);
  const LoadedStep& st = index_.step(s);
  if (index_.indexInTb(s) > 0) into.push_back({s - 1, s, true});
  for (const FlagWait* w = index_.waitsBegin(s); w != index_.waitsEnd(s); ++w) {
    const uint32_t source = index_.publisherOf(*w);
    if (source == kNoStep)
      satisfiable = false;
    else
      into.push_back({source, s, true});
  }
  if (receives(st.type)) {
    const uint32_t sender = senderOf(s);
    if (sender == kNoStep)
      satisfiable = false;
    else
      into.push_back({sender, s, false});
  }
  if (sends(st.type) && backPressure_ > 0) {
    const int32_t c = index_.sendConnection(tb);
    if (c < 0) {
      satisfiable = false;
    } else {
      const uint32_t k = index_.sendPosition(s);
      const auto& receives = index_.connections()[static_cast<size_t>(c)].recvSteps;
      if (k >= backPressure_) {
        if (k - backPressure_ < receives.size())
          into.push_back({receives[k - backPressure_], s, true});
        else
          satisfiable = false;
      }
    }
  }
}

uint32_t SyncGraph::senderOf(uint32_t receiveStep) const {
  const int32_t c = index_.recvConnection(index_.tbOfStep(receiveStep));
  if (c < 0) return kNoStep;
  const auto& sends = index_.connections()[static_cast<size_t>(c)].sendSteps;
  const uint32_t k = index_.recvPosition(receiveStep);
  return k < sends.size() ? sends[k] : kNoStep;
}

// Reverse topological order: reach(x) = union over edges x->y of {y} + reach(y);
// strict(x) = union over strict edges of {y} + reach(y), over non-strict ones of strict(y).
void SyncGraph::closure() {
  const size_t n = order_.size(), words = (n + 63) / 64;
  std::vector<std::vector<uint64_t>> reach(n, std::vector<uint64_t>(words, 0));
  strictReach_.assign(n, std::vector<uint64_t>(words, 0));
  std::vector<std::vector<SyncEdge>> outOf(n);
  for (const SyncEdge& e : edges_) outOf[position_[e.from]].push_back(e);
  for (size_t i = n; i-- > 0;) {
    for (const SyncEdge& e : outOf[i]) {
      const size_t j = position_[e.to];
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
  if (!runs_[a] || !runs_[b]) return false;
  const uint32_t j = position_[b];
  return (strictReach_[position_[a]][j / 64] >> (j % 64)) & 1;
}

}  // namespace ccforge::smt
