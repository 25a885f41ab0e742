// Integer-difference-logic encodings of the same deadlock question, for comparison only (the
// baselines of docs/benchmarks.md, "SMT"):
//   acyclicity: a timestamp per event, every event after its predecessors; sat iff every event can
//     run (the kind of encoding the measured baseline in targets.md uses; it gives no stuck state);
//   timestamped stuck state: encoding 1 with a timestamp per event group, ordering each group that
//     ran after its predecessors (the first version of encoding 1).
#pragma once

#include "smt/query.hpp"
#include "verify/smt/unit_events.hpp"

namespace ccforge::bench {

smt::Query acyclicityQuery(const verify::smt::UnitEventGraph& graph);
smt::Query timestampedStuckStateQuery(const verify::smt::UnitEventGraph& graph);

}  // namespace ccforge::bench
