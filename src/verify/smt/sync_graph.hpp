// Happens-before over the steps of one tile iteration, restated for the data encoding (the
// rules of msccl-ir.md §2, as the race check applies them): program order and dependency flags
// are strict edges (the earlier step ends before the later starts); the k-th send of a
// connection and its k-th receive are a non-strict edge (they overlap while data streams);
// slot back-pressure, receive k-W before send k, is strict. Steps whose edge can never be
// satisfied (a dependency nobody publishes in this iteration, a receive nobody sends, a slot
// never freed) and the steps after them never run.
#pragma once

#include <cstdint>
#include <vector>

#include "verify/step_ref.hpp"

namespace ccforge::smt {

struct SyncEdge {
  uint32_t from = 0, to = 0;
  bool strict = true;
};

class SyncGraph {
 public:
  // backPressure: W in transfers (0: unbounded FIFOs).
  SyncGraph(const LoadedProgram& index, uint32_t backPressure);

  const LoadedProgram& index() const { return index_; }
  bool runs(uint32_t s) const { return runs_[s]; }
  bool allRun() const { return order_.size() == index_.stepCount(); }
  // Running steps in an order consistent with every edge.
  const std::vector<uint32_t>& order() const { return order_; }
  // Edges between running steps.
  const std::vector<SyncEdge>& edges() const { return edges_; }
  // The send a receive-type step is paired with, or kNoStep.
  uint32_t senderOf(uint32_t receiveStep) const;
  // Whether every execution puts all of a before all of b: a path from a to b with a strict edge.
  bool strictlyBefore(uint32_t a, uint32_t b) const;

 private:
  void addEdges(uint32_t s, std::vector<SyncEdge>& into, bool& satisfiable) const;
  void closure();

  const LoadedProgram& index_;
  uint32_t backPressure_;
  std::vector<bool> runs_;
  std::vector<uint32_t> order_, position_;
  std::vector<SyncEdge> edges_;
  // Per running step (by position): steps reachable by a path with a strict edge, as bits by position.
  std::vector<std::vector<uint64_t>> strictReach_;
};

}  // namespace ccforge::smt
