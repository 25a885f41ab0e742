// A reference to consecutive chunks of one buffer of one rank, as the program last saw them.
#pragma once

#include <cstdint>
#include "dsl/source_pos.hpp"
#include <vector>

#include "dsl/trace.hpp"

namespace ccforge::dsl {

class ProgramState;

class ChunkRef {
 public:
  ChunkRef() = default;  // empty; any use is an error

  int32_t rank() const { return location_.rank; }
  ir::Buffer buffer() const { return location_.buffer; }
  int32_t index() const { return location_.index; }
  int32_t count() const { return count_; }

  // Copies the chunks to (rank, buffer, index..); returns the reference there.
  ChunkRef copy(int32_t rank, ir::Buffer buffer, int32_t index, Directives directives = {},
                SourcePos where = SourcePos::current()) const;
  // this = this (+) other, on this reference's rank (which receives other's chunks when the
  // ranks differ). Returns the new reference to this location; this one becomes stale.
  ChunkRef reduce(const ChunkRef& other, Directives directives = {}, SourcePos where = SourcePos::current()) const;
  // `parts` references of count()/parts chunks each, in order.
  std::vector<ChunkRef> split(int32_t parts, SourcePos where = SourcePos::current()) const;
  // One reference covering this and an adjacent reference of the same buffer.
  ChunkRef group(const ChunkRef& other, SourcePos where = SourcePos::current()) const;

 private:
  friend class ProgramState;
  ChunkRef(ProgramState* state, ChunkLocation location, int32_t count, uint32_t stamp)
      : state_(state), location_(location), count_(count), stamp_(stamp) {}

  ProgramState* state_ = nullptr;
  ChunkLocation location_;
  int32_t count_ = 0;
  uint32_t stamp_ = 0;  // trace length when the reference was made
};

}  // namespace ccforge::dsl
