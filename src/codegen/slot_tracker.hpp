// Dependencies per chunk slot, in program order: a read depends on the last write (true
// dependency); a write depends on the reads since the last write, or on the last write if there
// were none (false dependencies). Used for the Instruction DAG and the Chunk DAG alike.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/canonical_buffers.hpp"
#include "codegen/instruction_dag.hpp"

namespace ccforge::codegen {

// Who used the result an operation wrote, before it was overwritten (what fusion needs).
struct ResultUse {
  int32_t soleReader = -1;  // -1: nobody read it, -2: several operations did
  int32_t overwritten = 0;  // slots later overwritten without being read first
};

class SlotTracker {
 public:
  // `uses` (indexed by operation) is filled as operations read and overwrite results.
  SlotTracker(const std::vector<CanonicalBuffers>& ranks, std::vector<ResultUse>& uses);

  void read(int32_t rank, ir::Buffer b, int32_t off, int32_t cnt, int32_t op);
  // `reads`: the operation combines the old contents with new data (reductions).
  void write(int32_t rank, ir::Buffer b, int32_t off, int32_t cnt, int32_t op, bool reads);
  // Moves the predecessors collected for `op` into `edges`, one edge per predecessor (a true
  // edge wins over a false one).
  void flush(int32_t op, std::vector<Edge>& edges);

 private:
  struct Cell {
    int32_t lastWriter = -1;  // -1: the initial contents
    int32_t readerHead = -1;  // readers since the last write, a list in readers_
  };
  struct ReaderNode {
    int32_t op;
    int32_t next;
  };
  struct Pred {
    int32_t op;
    EdgeKind kind;
  };
  std::vector<Cell>& cellsOf(int32_t rank, ir::Buffer b) {
    return cells_[static_cast<size_t>(rank) * 3 + static_cast<size_t>(b)];
  }
  void noteRead(int32_t writer, int32_t op);

  std::vector<std::vector<Cell>> cells_;
  std::vector<ReaderNode> readers_;
  std::vector<Pred> preds_;
  std::vector<ResultUse>& uses_;
};

}  // namespace ccforge::codegen
