#include "codegen/compiler.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "codegen/channels.hpp"
#include "codegen/compile_error.hpp"
#include "codegen/dependencies.hpp"
#include "codegen/depths.hpp"
#include "codegen/emit.hpp"
#include "codegen/fusion.hpp"
#include "codegen/lower.hpp"
#include "codegen/threadblocks.hpp"
#include "semantics/protocol.hpp"
#include "semantics/parser_nodes.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::codegen {
namespace {

void requirePostcondition(const dsl::Program& program) {
  const auto result = program.checkPostcondition();
  if (result.holds()) return;
  std::string message = "program '" + program.name() + "' does not implement " +
                        program.binding().collective().describe() + ": " + std::to_string(result.mismatches) +
                        " output chunk" + (result.mismatches == 1 ? " is" : "s are") + " wrong";
  for (const std::string& d : result.details) message += "\n  " + d;
  if (result.mismatches > result.details.size())
    message += "\n  ... and " + std::to_string(result.mismatches - result.details.size()) + " more";
  throw CompileError(message);
}

constexpr int32_t kMaxAttempts = 24;

const ScheduledTb* longest(const Schedule& s) {
  const ScheduledTb* worst = nullptr;
  for (const ScheduledTb& t : s.tbs)
    if (!worst || t.steps.size() > worst->steps.size()) worst = &t;
  return worst;
}

[[noreturn]] void tooManySteps(const dsl::Program& program, const Lowered& lowered, const ScheduledTb& t,
                               const semantics::RuntimeProfile& target) {
  std::set<int32_t> ops;
  for (int32_t v : t.ops) ops.insert(lowered.dag.instrs[static_cast<size_t>(v)].traceOp);
  std::string from;
  int shown = 0;
  for (int32_t op : ops) {
    if (shown++ == 3) {
      from += ", ...";
      break;
    }
    from += (from.empty() ? "" : ", ") + describeTraceOp(program, op);
  }
  throw CompileError("rank " + std::to_string(t.rank) + ": a thread block (send " + std::to_string(t.send) + ", recv " +
                     std::to_string(t.recv) + ", channel " + std::to_string(t.channel) + ") needs " +
                     std::to_string(t.steps.size()) + " steps; " + target.name + " allows " +
                     std::to_string(target.maxStepsPerThreadBlock) + " per thread block. Its instructions come from " +
                     from +
                     ". The channel and thread block directives fix this; spread the transfers over more channels "
                     "or thread blocks, or compile for a runtime with a higher limit");
}

struct Scheduled {
  ChannelAssignment channels;
  Schedule schedule;
  int32_t cap = 0;  // instructions per thread block the schedule allowed itself
};

// Channels, thread blocks and dependencies; redone with chains isolated while connections
// overfill, and with fewer instructions per thread block while one has too many steps.
Scheduled scheduleWithinLimits(const dsl::Program& program, const Lowered& lowered, InstructionDag& dag,
                               const semantics::RuntimeProfile& target, int32_t& attempts) {
  int32_t cap = target.maxStepsPerThreadBlock;
  const int32_t slots = semantics::transfersInFlight(program.options().protocol);
  std::vector<bool> isolated(dag.instrs.size(), false);
  Isolation isolation = Isolation::PerChain;
  std::vector<bool> lastPlaced;  // the isolated chains of the last assignment that found channels
  Isolation lastIsolation = isolation;
  ChainOrder order = ChainOrder::Program;
  bool isolating = true;
  for (;;) {
    ++attempts;
    for (Instr& in : dag.instrs) in.channel = -1;
    std::optional<ChannelAssignment> assigned;
    try {
      assigned.emplace(assignChannels(dag, program, target, cap, isolated, isolation, order));
    } catch (const CompileError&) {
      // Isolating every chain alone used up the channels: let chains over the same links share.
      const bool anyIsolated = std::find(isolated.begin(), isolated.end(), true) != isolated.end();
      if (isolation == Isolation::PerChain && anyIsolated) {
        isolation = Isolation::PerFlow;
        continue;
      }
      // That too: keep the last assignment that found channels and let the connections its chains
      // share fill up (the note says so; verify decides on deadlock).
      if (lastPlaced.empty() || (isolated == lastPlaced && isolation == lastIsolation)) {
        // In the program's order the short chains took every channel a long one needs: start
        // over with the longest chains placed first.
        if (order == ChainOrder::LongestFirst) throw;
        order = ChainOrder::LongestFirst;
        std::fill(isolated.begin(), isolated.end(), false);
        isolation = Isolation::PerChain;
        lastPlaced.clear();
        isolating = true;
        continue;
      }
      isolated = lastPlaced;
      isolation = lastIsolation;
      isolating = false;
      continue;
    }
    lastPlaced = isolated;
    lastIsolation = isolation;
    ChannelAssignment& channels = *assigned;
    Schedule schedule = assignThreadBlocks(dag, channels, program, cap, slots, Injection::Free);
    bool retry = false;
    for (int32_t start : schedule.overfull)
      if (isolating && !isolated[static_cast<size_t>(start)] && chainDirective(dag, start) < 0 &&
          attempts < kMaxAttempts) {
        isolated[static_cast<size_t>(start)] = true;
        retry = true;
      }
    if (retry) continue;
    if (!schedule.overfull.empty()) {
      // Isolation is over and chains still overfill: hold back the sends that start chains.
      Schedule held = assignThreadBlocks(dag, channels, program, cap, slots, Injection::LeaveSlotForForwards);
      if (held.overfull.size() < schedule.overfull.size()) schedule = std::move(held);
    }
    insertDependencies(schedule, dag);
    const ScheduledTb* worst = longest(schedule);
    const auto steps = worst ? static_cast<int32_t>(worst->steps.size()) : 0;
    if (steps <= target.maxStepsPerThreadBlock) return Scheduled{std::move(channels), std::move(schedule), cap};
    if (cap <= 1) tooManySteps(program, lowered, *worst, target);
    cap = std::max(1, std::min(cap - 1, static_cast<int32_t>(int64_t{cap} * target.maxStepsPerThreadBlock / steps)));
  }
}

void requireResidentThreadBlocks(const dsl::Program& program, const Schedule& schedule,
                                 const semantics::RuntimeProfile& target) {
  const int32_t maxTbs = residentThreadBlocksPerRank(target);
  for (int32_t r = 0; r < program.ranks(); ++r) {
    const size_t n = schedule.tbsOfRank[static_cast<size_t>(r)].size();
    if (static_cast<int64_t>(n) > maxTbs)
      throw CompileError("rank " + std::to_string(r) + " needs " + std::to_string(n) + " thread blocks; " +
                         target.name + " allows " + std::to_string(maxTbs) +
                         " per rank (all of a rank's thread blocks must be resident at once)");
  }
}

// Out of place, buffer i is the caller's send buffer, which NCCL declares const (every entry point
// takes `const void* sendbuff`). A DSL program may still reduce into its input on the way, as
// msccl-tools programs do, as long as fusion forwards the sum without storing it (rrs).
void requireConstInput(const dsl::Program& program, const InstructionDag& dag) {
  if (program.binding().form != semantics::CallForm::OutOfPlace) return;
  for (const Instr& in : dag.instrs) {
    // A fused program's compute defines its input: the caller passes the product buffer there.
    if (in.removed || !semantics::writesLocalDestination(in.type) || in.dstBuf != ir::Buffer::Input ||
        in.type == ir::OpType::Compute)
      continue;
    throw CompileError("rank " + std::to_string(in.rank) + ": " + describeTraceOp(program, in.traceOp) +
                       " stores into the input buffer, which in an out-of-place call is the caller's const send "
                       "buffer; keep the value in scratch or output (a copy to scratch followed by the reduction "
                       "there compiles to one rrc), or bind the program to in-place calls");
  }
}

// The runtime's parser stores a rank's share of the file in a fixed node array; a larger share
// fails to load on that rank. Steps per rank are the program's instructions (plus nops), which
// scheduling cannot shrink: the program must move fewer pieces.
void requireParserNodes(const ir::Algorithm& algorithm, const semantics::RuntimeProfile& target) {
  const std::vector<int64_t> nodes = semantics::parserNodesPerRank(algorithm);
  const auto worst = std::max_element(nodes.begin(), nodes.end());
  if (worst == nodes.end() || *worst <= target.maxNodesPerLoad) return;
  const auto rank = static_cast<int32_t>(worst - nodes.begin());
  size_t tbs = 0, steps = 0;
  for (const ir::Gpu& g : algorithm.gpus)
    if (g.id == rank)
      for (const ir::ThreadBlock& tb : g.threadBlocks) {
        ++tbs;
        steps += tb.steps.size();
      }
  throw CompileError("rank " + std::to_string(rank) + " needs " + std::to_string(*worst) +
                     " XML nodes when it loads the file (1 algo, " + std::to_string(algorithm.gpus.size()) + " gpu, " +
                     std::to_string(tbs) + " tb and " + std::to_string(steps) + " step elements); " + target.name +
                     "'s parser stores at most " + std::to_string(target.maxNodesPerLoad) +
                     " per rank (MAX_NODES). Move fewer pieces per rank: fewer instances, parallelize factors or "
                     "pipeline rounds, or larger chunks");
}

std::vector<std::string> notesOf(const dsl::Program& program, const InstructionDag& dag, const Scheduled& s,
                                 const semantics::RuntimeProfile& target) {
  std::vector<std::string> notes;
  const std::vector<int32_t>& overfull = s.schedule.overfull;
  if (!overfull.empty()) {
    std::string where;
    for (size_t i = 0; i < overfull.size() && i < 3; ++i)
      where += (i ? ", " : "") + describeTraceOp(program, dag.instrs[static_cast<size_t>(overfull[i])].traceOp);
    notes.push_back("could not order " + std::to_string(overfull.size()) +
                    " chains of transfers within the protocol's " +
                    std::to_string(semantics::transfersInFlight(program.options().protocol)) +
                    " transfers in flight per connection (" + where + (overfull.size() > 3 ? ", ..." : "") +
                    "): the program may deadlock; ccforge verify decides");
  }
  const int32_t replicas = program.options().instances * program.parallelFactors();
  if (replicas > 1 && int64_t{s.channels.stride} * replicas > target.maxChannels)
    notes.push_back(std::to_string(replicas) + " replicas x " + std::to_string(s.channels.stride) +
                    " channels exceed the runtime's " + std::to_string(target.maxChannels) +
                    " channels: some replicas share channels");
  return notes;
}

Compiled compileFused(const dsl::Program& program, const semantics::RuntimeProfile& target, Pairing pairing) {
  Lowered lowered = lower(program, target);
  const FusionStats fusion = fuse(lowered, pairing);
  InstructionDag& dag = lowered.dag;
  requireConstInput(program, dag);
  computeDepths(dag);

  Compiled out;
  CompileStats& st = out.stats;
  const Scheduled s = scheduleWithinLimits(program, lowered, dag, target, st.attempts);
  requireResidentThreadBlocks(program, s.schedule, target);
  out.algorithm = emitAlgorithm(program, lowered, s.schedule, target);
  requireParserNodes(out.algorithm, target);
  out.notes = notesOf(program, dag, s, target);

  st.traceOps = static_cast<int64_t>(program.trace().size());
  st.rcs = fusion.rcs;
  st.rrcs = fusion.rrcs;
  st.rrs = fusion.rrs;
  st.fusedCopies = fusion.copies;
  for (const Instr& in : dag.instrs) st.instructions += in.removed ? 0 : 1;
  st.stepCap = s.cap;
  st.threadBlocks = static_cast<int64_t>(s.schedule.tbs.size());
  for (const ScheduledTb& t : s.schedule.tbs) {
    st.steps += static_cast<int64_t>(t.steps.size());
    st.nops += static_cast<int64_t>(t.steps.size() - t.ops.size());
  }
  st.channels = out.algorithm.nchannels;
  return out;
}

}  // namespace

Compiled compile(const dsl::Program& program, const CompileOptions& options) {
  const semantics::RuntimeProfile& target = options.target;
  if (target.requiresExecutorHeader && irKindOf(program.binding().type) == ir::CollectiveKind::Custom)
    throw CompileError("program '" + program.name() + "' implements a custom collective (" +
                       program.binding().collective().describe() + "), which " + target.name +
                       " cannot run (coll=\"custom\"); compile it for msccl-legacy");
  if (program.binding().product && !target.runsFusedPrograms)
    throw CompileError("program '" + program.name() + "' is a fused program (it computes), which " + target.name +
                       " cannot run; compile it for ccforge-fused");
  requirePostcondition(program);
  // Every forward fused first; when channel assignment finds no channel for a chain, once more
  // with one pairing of receive and send peers per connection (fusion.hpp). A failure of both
  // reports the first attempt's error; any other error is final at once.
  try {
    return compileFused(program, target, Pairing::Any);
  } catch (const NoChannelError& first) {
    try {
      return compileFused(program, target, Pairing::OnePerConnection);
    } catch (const CompileError&) {
      throw first;
    }
  }
}

}  // namespace ccforge::codegen