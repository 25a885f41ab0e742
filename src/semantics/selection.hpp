// Algorithm selection as the real runtimes perform it: for one NCCL call, which file of a set of
// algorithm files runs. Three selectors read such a set, each with its own test and file order
// (docs/verify.md "Directories" cites the source line of every rule modelled here). Also the
// calls `verify` asks about when it checks what a directory does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"
#include "semantics/collective.hpp"

namespace ccforge {

enum class Selector : uint8_t {
  Internal,  // msccl-executor without a scheduler plugin: every file of the directory, by path
  External,  // the Azure/msccl-scheduler plugin: the directory in readdir order (unspecified)
  Legacy,    // microsoft/msccl: the files of MSCCL_XML_FILES, in list order
};
std::string_view selectorName(Selector s);  // "internal", "external", "legacy"
// With a fixed order the first accepting file runs; otherwise (readdir) any accepting file may.
bool hasFixedOrder(Selector s);

// One NCCL call as a selector sees it. `count` is the call's count argument (per rank for
// allgather and reducescatter, per peer for alltoall); the op is sum (the internal scheduler and
// the legacy runtime pass average and user ops to NCCL).
struct SelectionCall {
  ir::CollectiveKind coll = ir::CollectiveKind::AllReduce;
  int32_t ranks = 0;
  CallForm form = CallForm::InPlace;
  int32_t typeSize = 4;  // bytes per element
  uint64_t count = 0;
};

// ranks for allgather, reducescatter and alltoall (their count is per rank), else 1.
uint64_t sizeMultiplier(ir::CollectiveKind coll, int32_t ranks);
// The size every selector compares with minBytes/maxBytes: count * typeSize * sizeMultiplier.
uint64_t callBytes(const SelectionCall& call);

// Whether the selector's header reader takes the file at all (a coll spelling it knows; for the
// legacy runtime also a window it accepts).
bool loads(Selector s, const ir::Algorithm& algo);
// Why loads() is false, for messages.
std::string notLoadedReason(Selector s, const ir::Algorithm& algo);
// The window the selector compares sizes with, for messages: "0..unbounded bytes", "[0, 128 MiB)".
std::string windowText(Selector s, const ir::Algorithm& algo);

// The first test a file fails for a call, in the order the selectors make them.
enum class Rejection : uint8_t {
  None,          // accepted
  NotLoaded,     // !loads(s, algo)
  Collective,    // another collective
  Ranks,         // another rank count
  CallForm,      // does not serve the call form
  Divisibility,  // nchunksperloop does not divide the selector's count
  Window,        // the size is outside minBytes..maxBytes
};
Rejection rejection(Selector s, const ir::Algorithm& algo, const SelectionCall& call);
inline bool accepts(Selector s, const ir::Algorithm& algo, const SelectionCall& call) {
  return rejection(s, algo, call) == Rejection::None;
}

// What the selector tests for divisibility by nchunksperloop, for messages: "count", "count*8",
// "count*typesize*8", ...
std::string divisibilityTerm(Selector s, ir::CollectiveKind coll, int32_t ranks);

// "The sizes users make": calls whose count is a power of two, for every call form the selector
// passes for this collective, every element size NCCL has (1, 2, 4, 8 bytes) and every count
// whose callBytes is at most 2^kMaxConsideredBytesLog2 (256 GiB, more than any GPU's memory).
// Ordered by form, element size, count. Empty when no NCCL call of `coll` reaches the selector.
inline constexpr int kMaxConsideredBytesLog2 = 38;
inline constexpr int32_t kTypeSizes[] = {1, 2, 4, 8};
std::vector<SelectionCall> consideredCalls(Selector s, ir::CollectiveKind coll, int32_t ranks);

// The calls a written directory is checked for (tune) and a synthesized file is weighed against
// NCCL at (synth -o): power-of-two sizes of 1 KiB..4 GiB.
inline constexpr uint64_t kCheckedMinBytes = uint64_t{1} << 10;
inline constexpr uint64_t kCheckedMaxBytes = uint64_t{1} << 32;

}  // namespace ccforge
