// Happens-before over the steps of one tile iteration for the data encoding: the race check's
// step graph (verify/step_graph.hpp: its edges, its order, the steps that never run) with the
// edges between running steps listed and its strict reachability closed.
#pragma once

#include <cstdint>
#include <vector>

#include "verify/step_graph.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify::smt {

struct SyncEdge {
  uint32_t from = 0, to = 0;
  bool strict = true;
};

class SyncGraph {
 public:
  SyncGraph(const semantics::LoadedProgram& index, const verify::BackPressure& backPressure);

  const semantics::LoadedProgram& index() const { return index_; }
  bool runs(uint32_t s) const { return graph_.runs(s); }
  bool allRun() const { return graph_.allRun(); }
  // Running steps in an order consistent with every edge.
  const std::vector<uint32_t>& order() const { return graph_.order(); }
  // Edges between running steps.
  const std::vector<SyncEdge>& edges() const { return edges_; }
  // The send a receive-type step is paired with, or kNoStep.
  uint32_t senderOf(uint32_t receiveStep) const;
  // Whether every execution puts all of a before all of b: a path from a to b with a strict edge.
  bool strictlyBefore(uint32_t a, uint32_t b) const;

 private:
  void closure();

  const semantics::LoadedProgram& index_;
  verify::StepGraph graph_;
  std::vector<SyncEdge> edges_;
  // Per running step (by position): steps reachable by a path with a strict edge, as bits by position.
  std::vector<std::vector<uint64_t>> strictReach_;
};

}  // namespace ccforge::verify::smt
