// The rows of an nccl-tests-style size sweep (-b/-e/-f) of `run` and `simulate`, before anything
// is measured or simulated: each size's columns, and per call form whether it is measured, not
// applicable (no program serves the form) or skipped (with the reason). The caller then fills the
// measured cells (perf_table.hpp prints them).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "driver/perf_table.hpp"
#include "semantics/collective.hpp"

namespace ccforge::driver {

struct SweepColumns {
  uint64_t elementBytes = 4;
  // The selectors' count multiplier (semantics/selection.hpp): the ranks for collectives whose
  // count is per rank (allgather, reducescatter, alltoall), else 1.
  uint64_t multiplier = 1;
  std::string type;   // nccl-tests spelling
  std::string redop;  // "none" for collectives that do not reduce
  int32_t root = -1;  // -1 for collectives without a root
};

// A cell to measure: its row, its call form, and the call's count.
struct SweepCall {
  size_t row = 0;
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  uint64_t bytes = 0;
  int64_t count = 0;
};

// Appends one row per size. The count column is the call's count, bytes / element / multiplier,
// as nccl-tests prints it (for allgather the count per rank: 33554432 B of doubles on 8 ranks is
// 524288). A form no program serves (`serves` false) is N/A; a size that is not a whole number
// of elements (per rank) is skipped, and so is a call `whyNot` names a reason for. Returns the
// cells to measure, in table order.
std::vector<SweepCall> addSweepRows(PerfTable& table, const std::vector<uint64_t>& sizes, const SweepColumns& columns,
                                    const std::function<bool(semantics::CallForm)>& serves,
                                    const std::function<std::string(const SweepCall&)>& whyNot);

PerfCell& cellOf(PerfTable& table, const SweepCall& call);

}  // namespace ccforge::driver
