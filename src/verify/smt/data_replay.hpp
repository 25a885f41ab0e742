// Replays a data witness: checks that the schedule is one the data encoding allows (every
// running step begins, reads and writes each chunk, and ends exactly once, in the orders the
// synchronisation imposes) and executes it on symbolic chunk values, event by event, under the
// same semantics the symbolic execution applies step by step.
#pragma once

#include <string>
#include <vector>

#include "verify/report.hpp"
#include "verify/smt/data_semantics.hpp"
#include "verify/smt/sync_graph.hpp"

namespace ccforge::verify::smt {

// Which write a read saw.
struct SeenWrite {
  uint32_t step = 0;
  int32_t chunk = 0;
  bool destination = false;              // the destination operand of 're' (else the local source)
  uint32_t writer = semantics::kNoStep;  // kNoStep: the cell's initial value
};

struct DataReplay {
  bool ok = false;
  std::string error;                                // the first event or order the encoding does not allow
  std::vector<semantics::ChunkValues::Id> outputs;  // final value of every output chunk (DataSetting::outputs order)
  std::vector<uint32_t> lastWriter;                 // per output chunk: the step that wrote it last, or kNoStep
  std::vector<SeenWrite> reads;                     // every read of a cell, in schedule order
};

DataReplay replayDataSchedule(const DataSetting& setting, const SyncGraph& graph,
                              const std::vector<verify::ScheduleEvent>& schedule);

// One interleaving: the running steps one after the other, in the graph's order.
std::vector<verify::ScheduleEvent> atomicSchedule(const DataSetting& setting, const SyncGraph& graph);

}  // namespace ccforge::verify::smt
