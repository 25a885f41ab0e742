#include "semantics/selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "semantics/runtime_profile.hpp"

namespace ccforge::semantics {
namespace {

using ir::CollectiveKind;

// The coll spellings each runtime's header reader knows; any other makes the executor's
// initialisation fail and the legacy runtime skip the file.
bool executorReads(const std::string& coll) {  // msccl_parser.cc mscclGetAlgoMetaFromXmlFile
  for (const char* name : {"reduce", "broadcast", "allreduce", "reducescatter", "allgather", "send", "recv", "gather",
                           "scatter", "alltoall", "alltoallv"})
    if (coll == name) return true;
  return false;
}
bool legacyReads(const std::string& coll) {  // microsoft/msccl topo.cc mscclGetAlgoFromXMLAndSetAlgo
  for (const char* name : {"allreduce", "allgather", "reduce", "broadcast", "alltoall", "reduce_scatter", "custom"})
    if (coll == name) return true;
  return false;
}

// microsoft/msccl reads a missing maxBytes as 128 MiB and refuses negative or inverted windows.
constexpr int64_t kLegacyDefaultMaxBytes = int64_t{1} << 27;
int64_t legacyMin(const ir::Algorithm& a) { return a.minBytes.value_or(0); }
int64_t legacyMax(const ir::Algorithm& a) { return a.maxBytes.value_or(kLegacyDefaultMaxBytes); }
bool legacyLoads(const ir::Algorithm& a) {
  return legacyReads(a.collName) && legacyMin(a) >= 0 && legacyMax(a) >= 0 && legacyMin(a) <= legacyMax(a);
}

// Their count is per rank (or per peer); the runtimes scale it by the rank count.
bool perRankCount(CollectiveKind c) {
  return c == CollectiveKind::AllGather || c == CollectiveKind::ReduceScatter || c == CollectiveKind::AllToAll;
}

// NCCL calls that reach each selector at all.
bool executorRoutes(CollectiveKind c) {  // collectives.cc: the calls that enter mscclEnqueueCheck
  switch (c) {
    case CollectiveKind::AllGather:
    case CollectiveKind::AllReduce:
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::Send:
    case CollectiveKind::Recv:
    case CollectiveKind::AllToAll: return true;
    default: return false;
  }
}
bool legacyRoutes(CollectiveKind c) {  // tuning.cc ncclTopoGetMSCCLAlgo, all_to_all.cc
  switch (c) {
    case CollectiveKind::AllReduce:
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::AllToAll: return true;
    default: return false;
  }
}

// Call forms a selector can see: it decides "in place" only for some collectives and treats
// every other call as out-of-place; the legacy runtime refuses in-place alltoall outright.
bool seesInPlace(Selector s, CollectiveKind c) {
  switch (s) {
    case Selector::Internal:
    case Selector::External:
    case Selector::Rccl: return c != CollectiveKind::Send && c != CollectiveKind::Recv;
    case Selector::Legacy: return c != CollectiveKind::AllToAll;
  }
  return false;
}

bool servesForm(Selector s, const ir::Algorithm& a, const SelectionCall& call) {
  if (s == Selector::Legacy) {
    // One flag, `inplace`; the alltoall path does not look at it (all_to_all.cc).
    if (call.coll == CollectiveKind::AllToAll) return true;
    return a.inplace.value_or(false) == (call.form == CallForm::InPlace);
  }
  return call.form == CallForm::InPlace ? a.servesInPlace() : a.servesOutOfPlace();
}

// The legacy runtime converts allgather and broadcast counts to bytes before it selects
// (argcheck.cc), and keeps the product in an int (tuning.cc), which wraps; its alltoall path
// multiplies in size_t.
bool legacyDivides(const ir::Algorithm& a, const SelectionCall& call) {
  const int64_t n = a.nchunksperloop;
  if (n == 0) return false;  // the runtime divides by zero
  const uint64_t ranks = static_cast<uint64_t>(call.ranks);
  uint64_t total = call.count;
  switch (call.coll) {
    case CollectiveKind::AllToAll: return n > 0 && call.count * ranks % static_cast<uint64_t>(n) == 0;
    case CollectiveKind::Broadcast: total = call.count * static_cast<uint64_t>(call.typeSize); break;
    case CollectiveKind::AllGather: total = call.count * static_cast<uint64_t>(call.typeSize) * ranks; break;
    case CollectiveKind::ReduceScatter: total = call.count * ranks; break;
    default: break;
  }
  const int32_t wrapped = static_cast<int32_t>(static_cast<uint32_t>(total));
  return int64_t{wrapped} % n == 0;
}

// What the selector multiplies the count by before it tests divisibility by nchunksperloop
// (see divides and legacyDivides).
uint64_t divisibilityFactor(Selector s, const SelectionCall& call) {
  const uint64_t ranks = static_cast<uint64_t>(call.ranks);
  switch (s) {
    case Selector::Internal:
    case Selector::Rccl: return sizeMultiplier(call.coll, call.ranks);
    case Selector::External: return 1;
    case Selector::Legacy:
      switch (call.coll) {
        case CollectiveKind::Broadcast: return static_cast<uint64_t>(call.typeSize);
        case CollectiveKind::AllGather: return static_cast<uint64_t>(call.typeSize) * ranks;
        case CollectiveKind::ReduceScatter:
        case CollectiveKind::AllToAll: return ranks;
        default: return 1;
      }
  }
  return 1;
}

bool divides(Selector s, const ir::Algorithm& a, const SelectionCall& call) {
  if (s == Selector::Legacy) return legacyDivides(a, call);
  if (a.nchunksperloop == 0) return false;  // the runtime divides by zero
  // size_t arithmetic: a negative nchunksperloop becomes huge and divides nothing.
  const uint64_t n = static_cast<uint64_t>(static_cast<int64_t>(a.nchunksperloop));
  return call.count * divisibilityFactor(s, call) % n == 0;
}

// The window as a closed interval of the selector's (unsigned) byte count; nullopt when empty.
struct ByteInterval {
  uint64_t low;
  uint64_t high;
};
std::optional<ByteInterval> byteInterval(Selector s, const ir::Algorithm& a) {
  if (s == Selector::Legacy) {
    const int64_t low = legacyMin(a), high = legacyMax(a);
    if (high <= low) return std::nullopt;  // [low, high) holds nothing
    return ByteInterval{static_cast<uint64_t>(low), static_cast<uint64_t>(high) - 1};
  }
  const SizeWindow w = sizeWindowOf(a);
  return ByteInterval{static_cast<uint64_t>(w.minBytes),
                      w.maxBytes ? static_cast<uint64_t>(*w.maxBytes) : std::numeric_limits<uint64_t>::max()};
}

uint64_t ceilDivide(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

bool inWindow(Selector s, const ir::Algorithm& a, uint64_t bytes) {
  if (s == Selector::Legacy)
    return bytes >= static_cast<uint64_t>(legacyMin(a)) && bytes < static_cast<uint64_t>(legacyMax(a));
  return sizeWindowOf(a).contains(bytes);
}

}  // namespace

std::string_view selectorName(Selector s) {
  switch (s) {
    case Selector::Internal: return "internal";
    case Selector::External: return "external";
    case Selector::Legacy: return "legacy";
    case Selector::Rccl: return "rccl";
  }
  return "?";
}

std::string_view selectorPhrase(Selector s) {
  switch (s) {
    case Selector::Internal: return "internal scheduler";
    case Selector::External: return "msccl-scheduler plugin";
    case Selector::Legacy: return "legacy runtime";
    case Selector::Rccl: return "RCCL's internal scheduler";
  }
  return "?";
}

bool hasFixedOrder(Selector s) { return s != Selector::External && s != Selector::Rccl; }

uint64_t sizeMultiplier(CollectiveKind coll, int32_t ranks) {
  return perRankCount(coll) ? static_cast<uint64_t>(ranks) : 1;
}

uint64_t callBytes(const SelectionCall& call) {
  return call.count * static_cast<uint64_t>(call.typeSize) * sizeMultiplier(call.coll, call.ranks);
}

bool loads(Selector s, const ir::Algorithm& a) {
  return s == Selector::Legacy ? legacyLoads(a) : executorReads(a.collName);
}

std::string notLoadedReason(Selector s, const ir::Algorithm& a) {
  if (s != Selector::Legacy) return fmt::format("the executor's header reader does not know coll=\"{}\"", a.collName);
  if (!legacyReads(a.collName))
    return fmt::format("the legacy runtime does not know coll=\"{}\" and skips the file", a.collName);
  return fmt::format("the legacy runtime refuses the window minBytes={} maxBytes={} and skips the file", legacyMin(a),
                     legacyMax(a));
}

std::string windowText(Selector s, const ir::Algorithm& a) {
  if (s == Selector::Legacy) return fmt::format("[{}, {}) bytes", legacyMin(a), legacyMax(a));
  const SizeWindow w = sizeWindowOf(a);
  return w.maxBytes ? fmt::format("{}..{} bytes", w.minBytes, *w.maxBytes)
                    : fmt::format("{}..unbounded bytes", w.minBytes);
}

Rejection shapeRejection(Selector s, const ir::Algorithm& a, const SelectionCall& call) {
  if (!loads(s, a)) return Rejection::NotLoaded;
  if (a.coll != call.coll) return Rejection::Collective;
  if (a.ngpus != call.ranks) return Rejection::Ranks;
  if (!servesForm(s, a, call)) return Rejection::CallForm;
  return Rejection::None;
}

Rejection rejection(Selector s, const ir::Algorithm& a, const SelectionCall& call) {
  if (const Rejection r = shapeRejection(s, a, call); r != Rejection::None) return r;
  if (call.count == 0 || !divides(s, a, call)) return Rejection::Divisibility;
  if (!inWindow(s, a, callBytes(call))) return Rejection::Window;
  return Rejection::None;
}

std::string divisibilityTerm(Selector s, CollectiveKind coll, int32_t ranks) {
  const bool perRank = perRankCount(coll);
  switch (s) {
    case Selector::Internal:
    case Selector::Rccl: return perRank ? fmt::format("count*{}", ranks) : "count";
    case Selector::External: return "count";
    case Selector::Legacy:
      if (coll == CollectiveKind::Broadcast) return "count*typesize";
      if (coll == CollectiveKind::AllGather) return fmt::format("count*typesize*{}", ranks);
      return perRank ? fmt::format("count*{}", ranks) : "count";
  }
  return "count";
}

bool reachesSelector(Selector s, CollectiveKind coll, int32_t ranks) {
  const bool routed = s == Selector::Legacy ? legacyRoutes(coll) && ranks > 1 : executorRoutes(coll);
  return routed && ranks >= 1;
}

std::vector<CallForm> formsPassed(Selector s, CollectiveKind coll) {
  if (!seesInPlace(s, coll)) return {CallForm::OutOfPlace};
  return {CallForm::InPlace, CallForm::OutOfPlace};
}

std::vector<SelectionCall> consideredCalls(Selector s, CollectiveKind coll, int32_t ranks) {
  std::vector<SelectionCall> calls;
  if (!reachesSelector(s, coll, ranks)) return calls;
  const uint64_t maxBytes = uint64_t{1} << kMaxConsideredBytesLog2;
  for (CallForm form : formsPassed(s, coll)) {
    for (int32_t typeSize : kTypeSizes)
      for (uint64_t count = 1;; count *= 2) {
        SelectionCall call{coll, ranks, form, typeSize, count};
        if (callBytes(call) > maxBytes) break;
        calls.push_back(call);
      }
  }
  return calls;
}

std::optional<uint64_t> countStep(Selector s, const ir::Algorithm& a, const SelectionCall& shape) {
  if (a.nchunksperloop <= 0) return std::nullopt;
  // n divides count * factor exactly when n / gcd(n, factor) divides count.
  const uint64_t n = static_cast<uint64_t>(a.nchunksperloop);
  return n / std::gcd(n, divisibilityFactor(s, shape));
}

std::optional<AcceptedCounts> acceptedCounts(Selector s, const ir::Algorithm& a, const SelectionCall& shape,
                                             uint64_t maxCount) {
  if (shapeRejection(s, a, shape) != Rejection::None || a.nchunksperloop <= 0) return std::nullopt;
  if (shape.typeSize == 0 || shape.typeSize < -1) throw std::invalid_argument("acceptedCounts: element size");
  if (s == Selector::Legacy && shape.typeSize < 0) return std::nullopt;
  const uint64_t factor = divisibilityFactor(s, shape);
  const uint64_t step = *countStep(s, a, shape);
  if (s == Selector::Legacy && shape.coll != CollectiveKind::AllToAll)
    maxCount = std::min<uint64_t>(maxCount, static_cast<uint64_t>(std::numeric_limits<int32_t>::max()) / factor);
  if (step > maxCount) return std::nullopt;
  const std::optional<ByteInterval> window = byteInterval(s, a);
  if (!window) return std::nullopt;
  // The accepted counts are j * step for j in [jLow, jHigh].
  uint64_t jLow = 1, jHigh = maxCount / step;
  const uint64_t multiplier = sizeMultiplier(shape.coll, shape.ranks);
  if (shape.typeSize > 0) {
    // bytes = j * unit, no wrap: unit * jHigh is at most maxCount * typeSize * multiplier.
    const uint64_t unit = step * static_cast<uint64_t>(shape.typeSize) * multiplier;
    jLow = std::max(jLow, ceilDivide(window->low, unit));
    jHigh = std::min(jHigh, window->high / unit);
  } else {
    // The size is -1: bytes = 2^64 - j * unit (size_t arithmetic), so bytes >= low means
    // j * unit <= 2^64 - low and bytes <= high means j * unit >= 2^64 - high.
    const uint64_t unit = step * multiplier;
    if (window->high == 0) return std::nullopt;
    jLow = std::max(jLow, ceilDivide(uint64_t{0} - window->high, unit));
    if (window->low != 0) jHigh = std::min(jHigh, (uint64_t{0} - window->low) / unit);
  }
  if (jLow > jHigh) return std::nullopt;
  AcceptedCounts counts{jLow * step, jHigh * step, step};
  SelectionCall first = shape, last = shape;
  first.count = counts.first;
  last.count = counts.last;
  if (!accepts(s, a, first) || !accepts(s, a, last))
    throw std::logic_error(fmt::format("acceptedCounts: counts {}..{} step {} disagree with the selection test",
                                       counts.first, counts.last, step));
  return counts;
}

const std::vector<NcclDataType>& ncclDataTypes() {
  // nccl.h ncclDataType_t, in its order.
  static const std::vector<NcclDataType> types = {
      {"int8", 1, true},    {"uint8", 1, true},     {"int32", 4, true},    {"uint32", 4, true},
      {"int64", 8, true},   {"uint64", 8, true},    {"float16", 2, true},  {"float32", 4, true},
      {"float64", 8, true}, {"bfloat16", 2, false}, {"fp8e4m3", 1, false}, {"fp8e5m2", 1, false},
  };
  return types;
}

const NcclDataType* findNcclDataType(std::string_view name) {
  // nccl.h's aliases: ncclChar, ncclInt, ncclHalf, ncclFloat, ncclDouble.
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"char", "int8"}, {"int", "int32"}, {"half", "float16"}, {"float", "float32"}, {"double", "float64"}};
  for (const auto& [alias, canonical] : kAliases)
    if (name == alias) name = canonical;
  for (const NcclDataType& t : ncclDataTypes())
    if (t.name == name) return &t;
  return nullptr;
}

int32_t selectorTypeSize(Selector s, const NcclDataType& type) {
  return s == Selector::External && !type.pluginKnows ? -1 : type.size;
}

std::vector<int32_t> selectorTypeSizes(Selector s) {
  std::vector<int32_t> sizes(std::begin(kTypeSizes), std::end(kTypeSizes));
  if (s == Selector::External) sizes.push_back(-1);
  return sizes;
}

uint64_t maxConsideredCount(CollectiveKind coll, int32_t ranks, int32_t elementSize) {
  const uint64_t perCount =
      static_cast<uint64_t>(std::max(elementSize, 1)) * std::max<uint64_t>(sizeMultiplier(coll, ranks), 1);
  return (uint64_t{1} << kMaxConsideredBytesLog2) / perCount;
}

CallForm seenForm(Selector s, CollectiveKind coll, CallForm passed, int32_t selectorSize, int32_t elementSize,
                  int32_t rank) {
  if (passed == CallForm::OutOfPlace || !seesInPlace(s, coll)) return CallForm::OutOfPlace;
  const bool offsetTest = coll == CollectiveKind::AllGather || coll == CollectiveKind::Gather ||
                          coll == CollectiveKind::ReduceScatter || coll == CollectiveKind::Scatter;
  if (offsetTest && selectorSize != elementSize && rank != 0) return CallForm::OutOfPlace;
  return CallForm::InPlace;
}

}  // namespace ccforge::semantics
