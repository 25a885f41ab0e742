// Algorithm selection as the real runtimes perform it: for one NCCL call, which file of a set of
// algorithm files runs. Three selectors read such a set, each with its own test and file order
// (docs/verify.md "Directories" cites the source line of every rule modelled here). Also the
// calls `verify` asks about when it checks what a directory does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"
#include "semantics/collective.hpp"

namespace ccforge::semantics {

enum class Selector : uint8_t {
  Internal,  // msccl-executor without a scheduler plugin: every file of the directory, by path
  External,  // the Azure/msccl-scheduler plugin: the directory in readdir order (unspecified)
  Legacy,    // microsoft/msccl: the files of MSCCL_XML_FILES, in list order
  Rccl,      // ROCm/rccl's own internal scheduler: the executor's tests, the directory in readdir order
};
std::string_view selectorName(Selector s);    // "internal", "external", "legacy", "rccl"
std::string_view selectorPhrase(Selector s);  // "internal scheduler", ... for reports
// With a fixed order the first accepting file runs; otherwise (readdir) any accepting file may.
bool hasFixedOrder(Selector s);

// One NCCL call as a selector sees it. `count` is the call's count argument (per rank for
// allgather and reducescatter, per peer for alltoall); the op is sum (the internal scheduler and
// the legacy runtime pass average and user ops to NCCL).
struct SelectionCall {
  ir::CollectiveKind coll = ir::CollectiveKind::AllReduce;
  int32_t ranks = 0;
  CallForm form = CallForm::InPlace;
  int32_t typeSize = 4;  // the element size the selector multiplies by (-1: the plugin's bf16/fp8)
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

// The tests before the size ones (loads, collective, ranks, call form): Rejection::None when
// the call's shape passes them; its count is not looked at.
Rejection shapeRejection(Selector s, const ir::Algorithm& algo, const SelectionCall& call);

// Every count of one call shape (`shape.count` ignored) that a file accepts, solved
// arithmetically rather than enumerated: the divisibility test makes the counts the multiples of
// `step`, the window an interval of them. Counts run from 1 to `maxCount`; for the legacy
// runtime, whose divisibility product is kept in an int, only up to where it does not wrap.
// nullopt when no count is accepted. first/last are accepted calls (checked with rejection()).
// The step of the counts the divisibility test passes (nchunksperloop / gcd with what the selector
// multiplies the count by first); nullopt when nchunksperloop is not positive (no count passes).
std::optional<uint64_t> countStep(Selector s, const ir::Algorithm& algo, const SelectionCall& shape);
struct AcceptedCounts {
  uint64_t first = 0;
  uint64_t last = 0;
  uint64_t step = 0;
};
std::optional<AcceptedCounts> acceptedCounts(Selector s, const ir::Algorithm& algo, const SelectionCall& shape,
                                             uint64_t maxCount);

// The call forms a selector passes for a collective: in-place and out-of-place, or out-of-place
// only where it never decides "in place" (send, recv; alltoall for the legacy runtime).
std::vector<CallForm> formsPassed(Selector s, ir::CollectiveKind coll);
// Whether any NCCL call of `coll` on `ranks` ranks reaches the selector at all.
bool reachesSelector(Selector s, ir::CollectiveKind coll, int32_t ranks);

// NCCL's data types (nccl.h ncclDataType_t) with their element size and the size each selector
// multiplies the count by: msccl-executor-nccl's ncclTypeSize (src/include/collectives.h) knows
// bf16 and fp8 when CUDA defines them (CUDA 11.8 and later); the msccl-scheduler plugin's own
// ncclTypeSize (src/scheduler.cc) lists bfloat16 only for RCCL builds and fp8 not at all, so
// returns -1 for both in an NCCL build.
struct NcclDataType {
  std::string_view name;  // "float32", "bfloat16", ...
  int32_t size;           // bytes per element
  bool pluginKnows;       // false: the plugin's ncclTypeSize returns -1
};
const std::vector<NcclDataType>& ncclDataTypes();
const NcclDataType* findNcclDataType(std::string_view name);  // also NCCL's aliases: half, float, double, ...
int32_t selectorTypeSize(Selector s, const NcclDataType& type);
// The element sizes a selector can multiply a count by: 1, 2, 4, 8, and -1 for the plugin.
std::vector<int32_t> selectorTypeSizes(Selector s);
// The largest count of a type of `elementSize` bytes whose call stays within 2^kMaxConsideredBytesLog2 bytes.
uint64_t maxConsideredCount(ir::CollectiveKind coll, int32_t ranks, int32_t elementSize);

// The call form one rank's selector sees. Both executor selectors decide it per rank: for
// allgather and reducescatter by comparing the buffers with an offset of rank * count *
// typesize, so where the selector's size is -1 (the plugin with bf16 or fp8) an in-place call is
// in-place on rank 0 only and out-of-place on every other rank.
CallForm seenForm(Selector s, ir::CollectiveKind coll, CallForm passed, int32_t selectorSize, int32_t elementSize,
                  int32_t rank);

// What the selector tests for divisibility by nchunksperloop, for messages: "count", "count*8",
// "count*typesize*8", ...
std::string divisibilityTerm(Selector s, ir::CollectiveKind coll, int32_t ranks);

// Calls whose count is a power of two (the report's sample; the dead-file test solves every count
// with acceptedCounts), for every call form the selector
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

}  // namespace ccforge::semantics
