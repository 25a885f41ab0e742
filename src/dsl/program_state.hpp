// The state behind a dsl::Program: buffer contents as symbolic values, the write history
// that makes references stale, the trace, and every misuse check. Internal to the DSL.
#pragma once

#include <cstdint>
#include "dsl/source_pos.hpp"
#include <string>
#include <vector>

#include "semantics/chunk_value.hpp"
#include "dsl/chunk_ref.hpp"
#include "dsl/collective_binding.hpp"
#include "dsl/program.hpp"
#include "dsl/trace.hpp"

namespace ccforge::dsl {

class ProgramState {
 public:
  ProgramState(std::string name, CollectiveBinding binding, ProgramOptions options);

  ChunkRef chunk(ChunkLocation at, int32_t count, SourcePos where);
  ChunkRef copy(const ChunkRef& src, ChunkLocation to, Directives d, SourcePos where);
  ChunkRef reduce(const ChunkRef& dst, const ChunkRef& src, Directives d, SourcePos where);
  ChunkRef compute(ChunkLocation at, int32_t count, Directives d, SourcePos where);
  std::vector<ChunkRef> split(const ChunkRef& ref, int32_t parts, SourcePos where);
  ChunkRef group(const ChunkRef& a, const ChunkRef& b, SourcePos where);
  void parallelize(int32_t n, const std::function<void()>& fragment, SourcePos where);

  struct Slot {
    semantics::ChunkValues::Id value = semantics::ChunkValues::kUninitialized;
    uint32_t lastWrite = 0;  // 1 + index of the trace op that wrote it; 0: initial contents
  };
  // Nullptr when the location is outside the buffer (scratch: beyond what the program used).
  const Slot* find(ChunkLocation at) const;
  int32_t scratchChunks(int32_t rank) const;
  // Two ranges of one rank that share memory (aliasing of in-place calls included).
  bool overlap(ChunkLocation a, int32_t countA, ChunkLocation b, int32_t countB) const;

  std::string name;
  CollectiveBinding binding;
  ProgramOptions options;
  semantics::ChunkValues values;
  std::vector<TraceOp> trace;
  int32_t parallelLcm = 1;

 private:
  struct RankBuffers {
    semantics::RankLayout layout;
    std::vector<std::vector<Slot>> regions;
  };
  Slot& slot(ChunkLocation at);
  // `call` makes the text naming the call; it runs only when there is an error to report.
  template <typename Call>
  void requireRange(const Call& call, SourcePos where, ChunkLocation at, int32_t count);
  template <typename Call>
  void requireLive(const Call& call, SourcePos where, const ChunkRef& ref, const char* role);
  template <typename Call>
  void requireDirectives(const Call& call, SourcePos where, const Directives& d);
  ChunkRef record(TraceOpKind kind, const ChunkRef& src, ChunkLocation dst, Directives d, SourcePos where);

  std::vector<RankBuffers> ranks_;
  int32_t parallel_ = 1;
};

std::string describeRef(const ChunkRef& ref);
std::string describeChunks(ChunkLocation at, int32_t count = 1);

}  // namespace ccforge::dsl
