// What `ccforge dot` draws: the Chunk DAG and the Instruction DAG of a DSL program, and the
// thread-block view of any MSCCL-IR program (one cluster per GPU, one per thread block inside,
// steps in program order, sends paired with their receives, dependency waits), with the steps of
// a failed verification (a deadlock cycle, a race pair) highlighted. A model refers to the program
// or algorithm it was built from, which must outlive it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "viz/dot_model.hpp"
#include "semantics/runtime_profile.hpp"
#include "dsl/program.hpp"
#include "ir/model.hpp"

namespace ccforge::viz {

// Nodes: the program's operations, clustered by the rank they write; chunks in DSL terms.
DotModel chunkDagModel(const dsl::Program& program);
// Nodes: the instructions after fusion, clustered by rank; chunks in DSL terms.
DotModel instructionDagModel(const dsl::Program& program, const semantics::RuntimeProfile& target);
// Nodes: the steps; chunks are the file's chunk offsets.
DotModel threadBlockModel(const ir::Algorithm& algo);

struct StepId {
  int32_t rank = 0;
  int32_t tb = 0;  // the tb's id attribute
  int32_t step = 0;
};
// The node of a step of threadBlockModel(algo), if the program has that step.
std::optional<int32_t> nodeOfStep(const ir::Algorithm& algo, StepId id);

// Steps to mark: a deadlock cycle (each waits for the next, the last for the first), a race pair or
// a chain (kind Finding); a witness's schedule (Witness); a step a deadlocked block waits at (Blocked).
struct HighlightGroup {
  std::vector<StepId> steps;
  bool cycle = false;
  NodeMark kind = NodeMark::Finding;
};
// Marks the steps and joins consecutive ones (and closes cycles) with path edges of the group's
// kind. A step in several groups keeps the first mark it got from a finding, then blocked, then
// witness. Steps the program does not have are returned, for the caller to report.
std::vector<StepId> highlight(DotModel& model, const ir::Algorithm& algo, const std::vector<HighlightGroup>& groups);

}  // namespace ccforge::viz
