// Executes a program's data movement on symbolic chunk values, under the runtime's semantics
// (msccl-ir.md §1 "Instruction types": rrc/rrs/rrcs reduce with the LOCAL srcbuf/srcoff), one
// tile iteration, in happens-before order. Every written chunk records which step produced it
// from which inputs, so a wrong result can be explained.
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/chunk_value.hpp"
#include "semantics/collective.hpp"
#include "verify/step_ref.hpp"
#include "verify/step_graph.hpp"

namespace ccforge::verify {

struct Provenance {
  uint32_t step = semantics::kNoStep;  // the step that wrote the chunk
  uint32_t from = 0;                   // provenance of the data it received or copied
  uint32_t with = 0;                   // provenance of the local operand it reduced with (reductions only)
  semantics::ChunkValues::Id value = semantics::ChunkValues::kUninitialized;
};

struct Cell {
  semantics::ChunkValues::Id value = semantics::ChunkValues::kUninitialized;
  uint32_t provenance = 0;
};

class SymbolicExecution {
 public:
  static constexpr uint32_t kInitialInput = 0;  // provenance of the collective's input
  static constexpr uint32_t kNeverWritten = 1;  // provenance of uninitialised memory
  static constexpr uint32_t kOutOfBounds = 2;   // read outside its buffer (reported by the lint)

  SymbolicExecution(const semantics::LoadedProgram& index, const std::vector<semantics::RankLayout>& layouts,
                    const semantics::Collective& collective, semantics::ChunkValues& values);
  void run(const StepGraph& graph);

  Cell cell(int32_t rank, ir::Buffer buffer, int32_t index) const;
  const Provenance& provenance(uint32_t id) const { return provenance_[id]; }

 private:
  // nullptr outside the buffer: such reads yield unknown data and such writes are lost.
  Cell* at(int32_t rank, ir::Buffer buffer, int32_t index);
  uint32_t record(uint32_t step, uint32_t from, uint32_t with, semantics::ChunkValues::Id value);
  void execute(uint32_t s);

  const semantics::LoadedProgram& index_;
  const std::vector<semantics::RankLayout>& layouts_;
  const semantics::Collective& collective_;
  semantics::ChunkValues& values_;
  std::vector<std::vector<std::vector<Cell>>> memory_;  // [rank][region][chunk]
  std::vector<std::vector<Cell>> sent_;                 // per connection: every chunk sent, in order
  std::vector<uint32_t> sentStart_;                     // per send-type step: offset in its connection
  std::vector<Provenance> provenance_;
};

}  // namespace ccforge::verify
