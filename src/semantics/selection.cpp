#include "semantics/selection.hpp"

#include <fmt/format.h>

#include "semantics/runtime_profile.hpp"

namespace ccforge {
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
    case CollectiveKind::AllToAll:
      return true;
    default:
      return false;
  }
}
bool legacyRoutes(CollectiveKind c) {  // tuning.cc ncclTopoGetMSCCLAlgo, all_to_all.cc
  switch (c) {
    case CollectiveKind::AllReduce:
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::AllToAll:
      return true;
    default:
      return false;
  }
}

// Call forms a selector can see: it decides "in place" only for some collectives and treats
// every other call as out-of-place; the legacy runtime refuses in-place alltoall outright.
bool seesInPlace(Selector s, CollectiveKind c) {
  switch (s) {
    case Selector::Internal:
    case Selector::External:
      return c != CollectiveKind::Send && c != CollectiveKind::Recv;
    case Selector::Legacy:
      return c != CollectiveKind::AllToAll;
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
    case CollectiveKind::AllToAll:
      return n > 0 && call.count * ranks % static_cast<uint64_t>(n) == 0;
    case CollectiveKind::Broadcast:
      total = call.count * static_cast<uint64_t>(call.typeSize);
      break;
    case CollectiveKind::AllGather:
      total = call.count * static_cast<uint64_t>(call.typeSize) * ranks;
      break;
    case CollectiveKind::ReduceScatter:
      total = call.count * ranks;
      break;
    default:
      break;
  }
  const int32_t wrapped = static_cast<int32_t>(static_cast<uint32_t>(total));
  return int64_t{wrapped} % n == 0;
}

bool divides(Selector s, const ir::Algorithm& a, const SelectionCall& call) {
  if (s == Selector::Legacy) return legacyDivides(a, call);
  if (a.nchunksperloop == 0) return false;  // the runtime divides by zero
  // size_t arithmetic: a negative nchunksperloop becomes huge and divides nothing.
  const uint64_t n = static_cast<uint64_t>(static_cast<int64_t>(a.nchunksperloop));
  const uint64_t tested = s == Selector::Internal ? call.count * sizeMultiplier(call.coll, call.ranks) : call.count;
  return tested % n == 0;
}

bool inWindow(Selector s, const ir::Algorithm& a, uint64_t bytes) {
  if (s == Selector::Legacy)
    return bytes >= static_cast<uint64_t>(legacyMin(a)) && bytes < static_cast<uint64_t>(legacyMax(a));
  // The executor compares size_t with int64_t: both sides as unsigned.
  const SizeWindow w = sizeWindowOf(a);
  return bytes >= static_cast<uint64_t>(w.minBytes) && (!w.maxBytes || bytes <= static_cast<uint64_t>(*w.maxBytes));
}

}  // namespace

std::string_view selectorName(Selector s) {
  switch (s) {
    case Selector::Internal:
      return "internal";
    case Selector::External:
      return "external";
    case Selector::Legacy:
      return "legacy";
  }
  return "?";
}

bool hasFixedOrder(Selector s) { return s != Selector::External; }

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
  if (!legacyReads(a.collName)) return fmt::format("the legacy runtime does not know coll=\"{}\" and skips the file", a.collName);
  return fmt::format("the legacy runtime refuses the window minBytes={} maxBytes={} and skips the file", legacyMin(a),
                     legacyMax(a));
}

std::string windowText(Selector s, const ir::Algorithm& a) {
  if (s == Selector::Legacy) return fmt::format("[{}, {}) bytes", legacyMin(a), legacyMax(a));
  const SizeWindow w = sizeWindowOf(a);
  return w.maxBytes ? fmt::format("{}..{} bytes", w.minBytes, *w.maxBytes) : fmt::format("{}..unbounded bytes", w.minBytes);
}

Rejection rejection(Selector s, const ir::Algorithm& a, const SelectionCall& call) {
  if (!loads(s, a)) return Rejection::NotLoaded;
  if (a.coll != call.coll) return Rejection::Collective;
  if (a.ngpus != call.ranks) return Rejection::Ranks;
  if (!servesForm(s, a, call)) return Rejection::CallForm;
  if (call.count == 0 || !divides(s, a, call)) return Rejection::Divisibility;
  if (!inWindow(s, a, callBytes(call))) return Rejection::Window;
  return Rejection::None;
}

std::string divisibilityTerm(Selector s, CollectiveKind coll, int32_t ranks) {
  const bool perRank = perRankCount(coll);
  switch (s) {
    case Selector::Internal:
      return perRank ? fmt::format("count*{}", ranks) : "count";
    case Selector::External:
      return "count";
    case Selector::Legacy:
      if (coll == CollectiveKind::Broadcast) return "count*typesize";
      if (coll == CollectiveKind::AllGather) return fmt::format("count*typesize*{}", ranks);
      return perRank ? fmt::format("count*{}", ranks) : "count";
  }
  return "count";
}

std::vector<SelectionCall> consideredCalls(Selector s, CollectiveKind coll, int32_t ranks) {
  std::vector<SelectionCall> calls;
  const bool routed = s == Selector::Legacy ? legacyRoutes(coll) && ranks > 1 : executorRoutes(coll);
  if (!routed || ranks < 1) return calls;
  const uint64_t maxBytes = uint64_t{1} << kMaxConsideredBytesLog2;
  for (CallForm form : {CallForm::InPlace, CallForm::OutOfPlace}) {
    if (form == CallForm::InPlace && !seesInPlace(s, coll)) continue;
    for (int32_t typeSize : kTypeSizes)
      for (uint64_t count = 1;; count *= 2) {
        SelectionCall call{coll, ranks, form, typeSize, count};
        if (callBytes(call) > maxBytes) break;
        calls.push_back(call);
      }
  }
  return calls;
}

}  // namespace ccforge
