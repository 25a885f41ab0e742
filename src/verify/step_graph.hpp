// Happens-before over the steps of one tile iteration (msccl-ir.md §2), modelling each step as
// an interval. Edges:
//   program order and dependency flags: strict (the earlier step ends before the later starts);
//   FIFO pairing, k-th send -> k-th receive on a connection: not strict (a receive starts after
//     its send starts and ends after it ends, but they overlap);
//   slot back-pressure, receive k-W -> send k: strict (the send cannot start before that many
//     transfers were consumed). W counts transfers in the one-transfer-per-step regime, the
//     weakest one, so the edges hold for every size. Only on connections inside a box: across
//     boxes the slot comes back when the network send completes (verify/box_layout.hpp).
// Two steps are ordered iff a path joins them that contains a strict edge.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "semantics/step_kinds.hpp"
#include "ir/model.hpp"
#include "verify/box_layout.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify {

inline constexpr uint32_t kNeverRuns = std::numeric_limits<uint32_t>::max();

// Transfers that must have been consumed before the k-th send may start, for `slots`
// transfers in flight (Simple counts slices of half a transfer, so one more is needed).
uint32_t backPressureDistance(ir::Protocol protocol, int32_t slots);

// Slot back-pressure as an order between steps.
struct BackPressure {
  uint32_t distance = 0;  // W in transfers; 0: none (unbounded FIFOs)
  BoxLayout boxes;        // it orders the connections whose two ranks share a box
};

class StepGraph {
 public:
  StepGraph(const semantics::LoadedProgram& index, const BackPressure& backPressure);

  template <typename F>  // f(uint32_t predecessor, bool strict)
  void forEachPredecessor(uint32_t s, F&& f) const;

  // Steps in an order consistent with the edges; steps that can never run (waiting on a
  // dependency, a transfer or a slot that never comes) are left out.
  const std::vector<uint32_t>& order() const { return order_; }
  uint32_t position(uint32_t s) const { return position_[s]; }
  bool runs(uint32_t s) const { return position_[s] != kNeverRuns; }
  bool allRun() const { return order_.size() == index_.stepCount(); }

 private:
  // Whether some flag the step waits for is never published in its tile iteration.
  bool waitsInVain(uint32_t s) const;
  void sort();

  const semantics::LoadedProgram& index_;
  std::vector<uint32_t> distance_;                      // per connection: W, or 0 where back-pressure orders nothing
  std::vector<uint32_t> dependentsStart_, dependents_;  // CSR: flagged step -> steps waiting on it
  std::vector<uint32_t> order_, position_;
};

template <typename F>
void StepGraph::forEachPredecessor(uint32_t s, F&& f) const {
  const int32_t tb = index_.tbOfStep(s);
  if (index_.indexInTb(s) > 0) f(s - 1, true);
  for (const semantics::FlagWait* w = index_.waitsBegin(s); w != index_.waitsEnd(s); ++w) {
    const uint32_t publisher = index_.publisherOf(*w);
    if (publisher != semantics::kNoStep) f(publisher, true);
  }
  const semantics::LoadedStep& st = index_.step(s);
  if (semantics::receives(st.type)) {
    const semantics::LoadedConnection& c = index_.connections()[index_.recvConnection(tb)];
    uint32_t k = index_.recvPosition(s);
    if (k < c.sendSteps.size()) f(c.sendSteps[k], false);
  }
  if (semantics::sends(st.type)) {
    const auto c = static_cast<size_t>(index_.sendConnection(tb));
    const uint32_t w = distance_[c], k = index_.sendPosition(s);
    if (w > 0 && k >= w && k - w < index_.connections()[c].recvSteps.size())
      f(index_.connections()[c].recvSteps[k - w], true);
  }
}

}  // namespace ccforge::verify
