// The in-memory MSCCL-IR model: one struct per XML element, every attribute kept.
// This is the hub of ccforge: readers and compilers produce it, every checker and
// the runtime consume it. Semantics of each field: docs/msccl-ir.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/text_position.hpp"
#include "ir/kinds.hpp"

namespace ccforge::ir {

// The word that opens the comment holding a custom collective's spec (Algorithm::collectiveSpec).
inline constexpr std::string_view kCollectiveSpecComment = "ccforge-collective-spec";

struct Step {
  int32_t s = 0;
  OpType type = OpType::Nop;
  Buffer srcbuf = Buffer::Input;
  Buffer dstbuf = Buffer::Input;
  bool hasdep = false;
  int32_t srcoff = -1;
  int32_t dstoff = -1;
  int32_t cnt = 0;
  int32_t depid = -1;
  int32_t deps = -1;
  // Fused programs (docs/fused.md). A compute step (type cmp) evaluates `op` for rows
  // [row, row + nrows) of its rank's product. srcbuf/dstbuf "w" name the rank's operands.
  ComputeOp op = ComputeOp::None;
  int32_t row = -1;
  int32_t nrows = -1;
  bool srcOperand = false;  // srcbuf="w" (srcbuf then holds Input, unused)
  bool dstOperand = false;  // dstbuf="w"
  base::TextLocation where;
};

struct ThreadBlock {
  int32_t id = 0;
  int32_t send = -1;
  int32_t recv = -1;
  int32_t chan = 0;
  std::vector<Step> steps;
  base::TextLocation where;
};

// A read-only tensor of a fused program's rank, outside the collective's buffers.
struct Operand {
  int32_t id = 0;
  std::string name;
  OperandType dtype = OperandType::F32;
  int32_t rows = 0;
  int32_t cols = 0;
  bool columnMajor = false;  // layout="col"; "row" otherwise
  base::TextLocation where;
};

// The operator a fused program's rank computes: a rows x cols row-major product of operands
// a and b that fills the collective's input buffer, rows / i_chunks rows per chunk.
struct Product {
  ComputeOp op = ComputeOp::None;
  int32_t a = -1;
  int32_t b = -1;
  int32_t rows = 0;
  int32_t cols = 0;
  base::TextLocation where;
};

struct Gpu {
  int32_t id = 0;
  int32_t inputChunks = 0;    // i_chunks
  int32_t outputChunks = 0;   // o_chunks
  int32_t scratchChunks = 0;  // s_chunks
  std::vector<ThreadBlock> threadBlocks;
  base::TextLocation where;
  std::vector<Operand> operands;   // fused programs only
  std::optional<Product> product;  // fused programs only
};

// Which header generation a file follows; decides what the writer emits and what the
// executor profile demands (msccl-ir.md §1 "algo").
enum class HeaderStyle : uint8_t {
  Legacy,    // msccl-tools 2023 / ncclize: `inplace` only, no size window
  Executor,  // msccl-executor: inplace, outofplace, minBytes, maxBytes
};

// A `<!-- ccforge-disable RULE: REASON -->` comment anywhere in a file: verify reports the
// findings of RULE (a rule id or a group) in this file as suppressed, with REASON as the
// justification (docs/verify.md, "Rule control"). The runtimes skip comments.
struct RuleSuppression {
  std::string rule;
  std::string reason;
  base::TextLocation where;
};

struct Algorithm {
  std::string name;
  Protocol proto = Protocol::Simple;
  int32_t nchannels = 1;
  int32_t nchunksperloop = 1;
  int32_t ngpus = 1;
  CollectiveKind coll = CollectiveKind::AllReduce;
  std::string collName = "allreduce";  // spelling in the file
  // coll="fused-<collective>": a fused computation + collective program (docs/fused.md); `coll`
  // is then the collective. The stock runtimes refuse the name.
  bool fused = false;
  std::optional<bool> inplace;  // absent only in hand-written files; the runtime then reads 0
  std::optional<bool> outofplace;
  std::optional<int64_t> minBytes;
  std::optional<int64_t> maxBytes;
  // A custom collective's spec (docs/collective-spec.md, JSON) that ccforge wrote into the file
  // as the comment `<!-- ccforge-collective-spec JSON -->` right inside <algo>: the runtimes skip
  // comments (msccl_parser.cc:117-119, microsoft/msccl src/graph/xml.cc:121), and verify takes
  // the postcondition from it when the file's coll is "custom".
  std::optional<std::string> collectiveSpec;
  std::vector<RuleSuppression> suppressions;
  std::vector<Gpu> gpus;
  base::TextLocation where;

  HeaderStyle headerStyle() const {
    return outofplace || minBytes || maxBytes ? HeaderStyle::Executor : HeaderStyle::Legacy;
  }
  // The call forms this algorithm serves. Legacy files carry only `inplace`, which selects
  // exactly one form; executor files may serve both.
  bool servesInPlace() const { return inplace.value_or(false); }
  bool servesOutOfPlace() const { return outofplace ? *outofplace : !servesInPlace(); }
  size_t stepCount() const;
  // Structural equality, ignoring text locations (the reader/writer round-trip property).
  bool sameAs(const Algorithm& other) const;
};

}  // namespace ccforge::ir
