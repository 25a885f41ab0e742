// Encoding 1: is there a reachable stuck state? Each thread block has run a prefix of its
// events (one Boolean per event group: "has run"); every event that ran has its predecessors
// run, and every unfinished block's next event waits for a predecessor that has not run.
//
// Such a closed, stuck set of events exists iff the program deadlocks. If it deadlocks, the
// state the simulation ends in is one. If it does not, its event graph is acyclic (the
// simulation ran every event in an order that respects every edge); in a closed set that leaves
// a block unfinished, take the unfinished blocks' next event that comes first in that order: its
// predecessors all come earlier, so they ran, and the set is not stuck. So unsat proves deadlock
// freedom in this configuration, and no timestamps are needed to rule out events that justify
// each other in a circle (such an encoding, in integer difference logic, is 10x slower to refute
// and far slower to satisfy).
//
// A model may still mark the events of a circular wait as run. The witness is the part of the
// model's state that is reachable: its events in an order where each follows its predecessors.
// That part is stuck too (a next event outside it with every predecessor inside would be
// reachable), and it is the state the simulation ends in.
#pragma once

#include <vector>

#include "verify/report.hpp"
#include "smt/query.hpp"
#include "verify/smt/unit_events.hpp"

namespace ccforge::verify::smt {

struct DeadlockWitness {
  verify::Witness witness;
  std::vector<verify::BlockedThreadBlock> blocked;  // as the simulation reports them
  size_t circularGroups = 0;                        // groups the model marked as run that no schedule reaches
};

class DeadlockEncoding {
 public:
  explicit DeadlockEncoding(const UnitEventGraph& graph);

  const ccforge::smt::Query& query() const { return query_; }
  // Reads a satisfying model (values of query().wanted) as a schedule and a stuck state.
  DeadlockWitness witness(const std::vector<int64_t>& model) const;

 private:
  struct Group {
    uint32_t firstEvent = 0;
    ccforge::smt::Term ran;
  };
  void encode();
  uint32_t groupOf(uint32_t event) const { return groupOfEvent_[event]; }
  uint32_t groupEnd(uint32_t g) const;  // one past the group's last event
  // The groups that ran according to the model, in an order where each follows its predecessors;
  // groups that ran only in a circle are left out.
  std::vector<uint32_t> reachableOrder(const std::vector<bool>& ran) const;

  const UnitEventGraph& graph_;
  ccforge::smt::Query query_;
  std::vector<Group> groups_;
  std::vector<uint32_t> groupOfEvent_;
  std::vector<uint32_t> tbFirstGroup_;  // per thread block, plus an end marker
};

}  // namespace ccforge::verify::smt
