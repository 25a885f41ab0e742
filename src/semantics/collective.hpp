// Collectives as pre/postconditions over chunks.
//
// A collective is fixed by its kind, the number of ranks N and the chunks per loop C (the
// algorithm's nchunksperloop). It says how large each rank's user buffers are (in chunks),
// what the input buffer holds before the call (precondition), what each output chunk must
// hold after it (postcondition, or unconstrained), and how an in-place call aliases the
// input and output buffers (msccl-ir.md §2 "Memory and races").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "semantics/chunk_value.hpp"
#include "ir/model.hpp"

namespace ccforge::semantics {

enum class CallForm : uint8_t { InPlace, OutOfPlace };
std::string_view callFormName(CallForm f);

enum class CollectiveType : uint8_t {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Broadcast,  // rooted
  Reduce,     // rooted
  Gather,     // rooted
  Scatter,    // rooted
  AllToNext,  // rank i's input goes to rank i+1's output (MSCCLang paper §7.4)
  Custom,     // described as data (CustomCollectiveSpec)
};

bool isRooted(CollectiveType t);
std::string_view collectiveTypeName(CollectiveType t);
// "allreduce", "broadcast", "alltonext", ...; both reducescatter spellings.
std::optional<CollectiveType> parseCollectiveType(std::string_view name);
// The collective a file's coll attribute names, if it determines one (not for custom/send/recv).
std::optional<CollectiveType> collectiveTypeOf(ir::CollectiveKind kind);
// The coll attribute an algorithm for this collective carries ("custom" for alltonext/custom).
ir::CollectiveKind irKindOf(CollectiveType t);
// nccl-tests' busbw / algbw on n ranks (its doc/PERFORMANCE.md): 2(n-1)/n for allreduce; (n-1)/n
// for allgather, reducescatter, alltoall, gather and scatter; 1 for broadcast, reduce and the
// collectives nccl-tests does not have.
double busBandwidthFactor(CollectiveType t, int32_t ranks);

// Collectives whose per-rank share of the big buffer is C/N chunks (allgather, reducescatter,
// alltoall, gather, scatter): their nchunksperloop is a multiple of the ranks, their count per rank.
bool hasShards(CollectiveType t);

// Pre/postcondition as data, for collectives that are not built in.
struct ChunkMapEntry {
  int32_t rank = 0;
  int32_t index = 0;
  std::vector<Atom> value;  // the input chunks summed into this chunk (one for a plain copy)
};
// In place, a custom collective's input chunk k is its output chunk k.
struct CustomCollectiveSpec {
  std::string name;
  int32_t ranks = 0;
  int32_t inputChunks = 0;   // per rank
  int32_t outputChunks = 0;  // per rank
  // Precondition: input chunks that hold data; absent means every input chunk (r, k) holds in(r, k).
  std::optional<std::vector<ChunkMapEntry>> pre;
  // Postcondition: constrained output chunks; the rest are unconstrained.
  std::vector<ChunkMapEntry> post;
};

// Where a buffer of one rank lives during a call: `region` is a memory area of the rank
// (aliased buffers share one), the buffer starts at chunk `base` of it and is `length` long.
struct BufferView {
  int32_t region = 0;
  int32_t base = 0;
  int32_t length = 0;
};
struct RankLayout {
  std::array<BufferView, 3> views;  // indexed by ir::Buffer
  std::vector<int32_t> regionSizes;
  const BufferView& view(ir::Buffer b) const { return views[static_cast<size_t>(b)]; }
};

class Collective {
 public:
  // Throws std::invalid_argument with a user-facing message when the parameters do not make
  // sense (e.g. C not a multiple of N for allgather, root out of range).
  static Collective standard(CollectiveType type, int32_t ranks, int32_t chunksPerLoop, int32_t root = 0);
  static Collective custom(CustomCollectiveSpec spec);

  CollectiveType type() const { return type_; }
  int32_t ranks() const { return ranks_; }
  int32_t chunksPerLoop() const { return chunksPerLoop_; }
  int32_t root() const { return root_; }
  // "allreduce", "broadcast(root 2)", "custom 'alltonext'".
  std::string describe() const;

  int32_t inputChunks() const { return inputChunks_; }
  int32_t outputChunks() const { return outputChunks_; }

  // Memory layout of `rank` for a call form; scratch has the file's s_chunks.
  RankLayout layout(int32_t rank, CallForm form, int32_t scratchChunks) const;

  // Precondition: value of input chunk `index` of `rank` before the call.
  ChunkValues::Id initialInput(ChunkValues& values, int32_t rank, int32_t index) const;
  // Postcondition: required value of output chunk `index` of `rank`; nullopt = unconstrained.
  std::optional<ChunkValues::Id> expectedOutput(ChunkValues& values, int32_t rank, int32_t index) const;

 private:
  Collective() = default;

  CollectiveType type_ = CollectiveType::AllReduce;
  int32_t ranks_ = 1;
  int32_t chunksPerLoop_ = 1;
  int32_t root_ = 0;
  int32_t inputChunks_ = 0;
  int32_t outputChunks_ = 0;
  // Custom collectives only: per rank, per chunk.
  std::string customName_;
  std::optional<std::vector<std::vector<std::vector<Atom>>>> pre_;
  std::vector<std::vector<std::optional<std::vector<Atom>>>> post_;
};

}  // namespace ccforge::semantics
