// The data side of one call form, shared by the data encoding and its replay: every rank's
// memory as numbered cells (aliased buffers share cells, msccl-ir.md §2 "Memory and races"),
// what each cell holds before the call, which output chunks are checked against what, and what
// a step computes for one chunk under the runtime's semantics (msccl-ir.md §1: rrc/rrs/rrcs
// reduce with the local srcbuf/srcoff, re is dst = dst + src).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "semantics/chunk_value.hpp"
#include "semantics/collective.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify::smt {

inline constexpr int32_t kOutside = -1;  // a chunk outside its buffer: reads give unknown data, writes are lost

struct OutputChunk {
  int32_t rank = 0;
  int32_t index = 0;  // in the output buffer
  int32_t cell = kOutside;
  std::optional<semantics::ChunkValues::Id> expected;  // the postcondition; nullopt: unconstrained
};

class DataSetting {
 public:
  // Without a collective every input chunk (r, k) holds in(r, k) and nothing is expected.
  DataSetting(const semantics::LoadedProgram& index, const std::vector<semantics::RankLayout>& layouts,
              const std::optional<semantics::Collective>& collective, semantics::ChunkValues& values);

  const semantics::LoadedProgram& index() const { return index_; }
  semantics::ChunkValues& values() const { return values_; }
  int32_t cell(int32_t rank, ir::Buffer buffer, int32_t i) const;
  size_t cellCount() const { return initial_.size(); }
  semantics::ChunkValues::Id initial(int32_t cell) const { return initial_[static_cast<size_t>(cell)]; }
  const std::vector<OutputChunk>& outputs() const { return outputs_; }
  // The cells step s reads for chunk j: its local source, and for 're' its destination.
  int32_t sourceCell(uint32_t s, int32_t j) const;
  int32_t destinationCell(uint32_t s, int32_t j) const;
  // What step s computes for chunk j from the data it received, its local source and destination.
  semantics::ChunkValues::Id result(uint32_t s, semantics::ChunkValues::Id incoming, semantics::ChunkValues::Id source,
                                    semantics::ChunkValues::Id destination) const;

 private:
  const semantics::LoadedProgram& index_;
  const std::vector<semantics::RankLayout>& layouts_;
  semantics::ChunkValues& values_;
  std::vector<std::vector<int32_t>> regionFirstCell_;  // [rank][region]
  std::vector<semantics::ChunkValues::Id> initial_;
  std::vector<OutputChunk> outputs_;
};

}  // namespace ccforge::verify::smt
