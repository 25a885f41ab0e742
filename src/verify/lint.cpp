#include "verify/lint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

#include "ir/names.hpp"
#include "semantics/protocol.hpp"
#include "semantics/step_kinds.hpp"
#include "verify/parser_limits.hpp"
#include "verify/rules.hpp"
#include "verify/tile_iterations.hpp"

namespace ccforge::verify {
namespace {

using ir::Buffer;
using ir::OpType;

std::string stepName(int32_t rank, int32_t tb, int32_t step) {
  return fmt::format("rank {} tb {} step {}", rank, tb, step);
}

class Linter {
 public:
  Linter(const ir::Algorithm& algo, const std::optional<semantics::Collective>& collective, const Options& options,
         Findings& findings)
      : a_(algo), collective_(collective), o_(options), p_(options.profile), f_(findings) {}

  LintResult run(const semantics::LoadResult& load, const std::vector<ir::RuntimeParserIssue>& parserIssues) {
    for (const auto& issue : parserIssues)
      issue.warning ? f_.warning(Check::Format, "format.runtime-parser", issue.where, issue.message)
                    : f_.error(Check::Format, "format.runtime-parser", issue.where, issue.message);
    headerRules();
    checkParserStorage(a_, p_, f_);
    checkTileIterations(a_, p_, f_);
    for (const semantics::LoadIssue& issue : load.issues) {
      const RuleInfo* rule = findRule(issue.rule);
      f_.error(rule ? rule->check : Check::Limits, issue.rule, issue.where, issue.message);
    }
    if (!load.program) return std::move(r_);
    const semantics::LoadedProgram& program = *load.program;
    if (collective_) chunkCountRules(program);
    computeBufferLengths(program);
    for (int32_t rank = 0; rank < a_.ngpus; ++rank) threadBlockRules(program, rank);
    return std::move(r_);
  }

 private:
  void headerRules() {
    if (p_.requiresExecutorHeader) {
      auto require = [&](bool present, const char* attribute) {
        if (!present)
          f_.error(Check::Format, "format.executor-header", a_.where,
                   fmt::format("missing attribute '{}' on <algo>: {} requires it and fails to initialise without it",
                               attribute, p_.name));
      };
      require(a_.inplace.has_value(), "inplace");
      require(a_.outofplace.has_value(), "outofplace");
      require(a_.minBytes.has_value(), "minBytes");
      require(a_.maxBytes.has_value(), "maxBytes");
    }
    if (!p_.acceptsLegacyCollNames && (a_.collName == "reduce_scatter" || a_.collName == "custom"))
      f_.error(Check::Format, "format.coll-name", a_.where,
               fmt::format("coll=\"{}\" is not accepted by {} (it takes {}{})", a_.collName, p_.name,
                           a_.collName == "reduce_scatter" ? "reducescatter" : "only the built-in collectives",
                           a_.collName == "custom" ? "; custom collectives need msccl-legacy" : ""));
    if (a_.fused && !p_.runsFusedPrograms)
      f_.error(Check::Format, "format.fused-program", a_.where,
               fmt::format("coll=\"{}\" is a fused computation + collective program: {}'s parser refuses it "
                           "(\"unsupported collective\"); only ccforge's runtime (profile ccforge-fused) runs it",
                           a_.collName, p_.name));
    if (p_.maxNameLength > 0 && a_.name.size() > static_cast<size_t>(p_.maxNameLength))
      f_.warning(
          Check::Format, "format.name-length", a_.where,
          fmt::format("name is {} characters; {} keeps only the first {}", a_.name.size(), p_.name, p_.maxNameLength));
    if (a_.nchannels < 1 || a_.nchannels > p_.maxChannels)
      f_.error(Check::Limits, "limits.channels", a_.where,
               fmt::format("nchannels={} is outside 1..{} (MAXCHANNELS)", a_.nchannels, p_.maxChannels));
    int64_t lo = a_.minBytes.value_or(0), hi = a_.maxBytes.value_or(0);
    if (lo < 0 || hi < 0 || (hi != 0 && lo > hi))
      f_.error(Check::Limits, "limits.size-window", a_.where,
               fmt::format("size window minBytes={} maxBytes={} selects no size (maxBytes=0 means unbounded)", lo, hi));
    if (!a_.servesInPlace() && !a_.servesOutOfPlace())
      f_.error(Check::Limits, "limits.call-form", a_.where,
               "inplace=0 and outofplace=0: the algorithm serves no call and is never selected");
  }

  void chunkCountRules(const semantics::LoadedProgram& program) {
    // In place, the buffer that lives inside the other one may be declared with 0 chunks.
    bool gathers = collective_->type() == semantics::CollectiveType::AllGather ||
                   collective_->type() == semantics::CollectiveType::Gather;
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = program.gpu(r);
      bool inOk = g.inputChunks == collective_->inputChunks() || (a_.servesInPlace() && gathers && g.inputChunks == 0);
      bool outOk =
          g.outputChunks == collective_->outputChunks() || (a_.servesInPlace() && !gathers && g.outputChunks == 0);
      if (inOk && outOk) continue;
      std::string message = fmt::format(
          "gpu {}: i_chunks={} o_chunks={}, but {} with nchunksperloop={} on {} ranks has {} input and {} "
          "output chunks",
          r, g.inputChunks, g.outputChunks, collective_->describe(), a_.nchunksperloop, a_.ngpus,
          collective_->inputChunks(), collective_->outputChunks());
      if (p_.checksChunkCounts)
        f_.error(Check::Limits, "limits.chunk-counts", g.where, message + fmt::format(" ({} rejects this)", p_.name));
      else
        f_.warning(Check::Limits, "limits.chunk-counts", g.where, message + " (informational for " + p_.name + ")");
    }
  }

  void computeBufferLengths(const semantics::LoadedProgram& program) {
    r_.bufferLengths.resize(a_.ngpus);
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = program.gpu(r);
      if (collective_) {
        r_.bufferLengths[r] = {collective_->inputChunks(), collective_->outputChunks(), g.scratchChunks};
        continue;
      }
      int32_t in = g.inputChunks, out = g.outputChunks;
      if (a_.servesInPlace() && !a_.servesOutOfPlace()) {
        if (out == 0) out = in;
        if (in == 0) in = out;
      }
      r_.bufferLengths[r] = {in, out, g.scratchChunks};
    }
  }

  void threadBlockRules(const semantics::LoadedProgram& program, int32_t rank) {
    const ir::Gpu& g = program.gpu(rank);
    const int32_t ntbs = program.threadBlocksOfRank(rank);
    int32_t coResident = o_.maxCoResidentThreadBlocks.value_or(p_.maxCoResidentThreadBlocks);
    if (ntbs > p_.maxThreadBlocksPerRank)
      f_.error(
          Check::Limits, "limits.tbs-per-rank", g.where,
          fmt::format("gpu {} has {} thread blocks; {} allows {}", rank, ntbs, p_.name, p_.maxThreadBlocksPerRank));
    else if (ntbs > coResident && anyBlockWaits(program, rank))
      f_.error(Check::Limits, "limits.co-residency", g.where,
               fmt::format("gpu {} has {} thread blocks, but only {} can be resident at once (--max-tbs); its blocks "
                           "wait on each other, so the kernel would hang",
                           rank, ntbs, coResident));
    std::map<int32_t, int32_t> sendersPerChannel, receiversPerChannel;
    for (int32_t t = program.firstTbOfRank(rank); t < program.firstTbOfRank(rank + 1); ++t) {
      const ir::ThreadBlock& tb = program.threadBlock(t);
      // In 64 bits: nchannels may be any int32, -2^31 included.
      const int64_t channels = std::min(a_.nchannels, p_.maxChannels);
      if (tb.chan < 0 || tb.chan >= channels)
        f_.error(
            Check::Limits, "limits.channels", tb.where,
            fmt::format("gpu {} tb {}: chan={} is outside {} (nchannels={}, MAXCHANNELS={}){}", rank, tb.id, tb.chan,
                        channels < 1 ? std::string("the empty channel range") : fmt::format("0..{}", channels - 1),
                        a_.nchannels, p_.maxChannels,
                        tb.chan == p_.maxChannels ? "; the runtime's parser lets chan=MAXCHANNELS through (it "
                                                    "rejects only chan > MAXCHANNELS) and then indexes one past "
                                                    "its channel array"
                                                  : ""));
      if (tb.send >= 0) ++sendersPerChannel[tb.chan];
      if (tb.recv >= 0) ++receiversPerChannel[tb.chan];
      if (static_cast<int64_t>(tb.steps.size()) > p_.maxStepsPerThreadBlock)
        f_.error(Check::Limits, "limits.steps-per-tb", tb.where,
                 fmt::format("gpu {} tb {} has {} steps; {} allows {} per thread block (its parser bounds only each "
                             "step's s, and more steps overrun its step array)",
                             rank, tb.id, tb.steps.size(), p_.name, p_.maxStepsPerThreadBlock));
      stepRules(program, rank, t);
    }
    auto perChannel = [&](const std::map<int32_t, int32_t>& counts, const char* what) {
      for (const auto& [chan, n] : counts)
        if (n > p_.maxPeersPerChannel)
          f_.error(Check::Limits, "limits.tbs-per-channel", g.where,
                   fmt::format("gpu {}: {} thread blocks {} on channel {}; the runtime allows {}", rank, n, what, chan,
                               p_.maxPeersPerChannel));
    };
    perChannel(sendersPerChannel, "send");
    perChannel(receiversPerChannel, "receive");
  }

  // Whether a block of the rank can wait: on a peer (a receive waits for data, a send for a free
  // slot) or on a flag. Blocks that never wait finish whatever runs when, so more of them than
  // can be resident only run in turns.
  static bool anyBlockWaits(const semantics::LoadedProgram& program, int32_t rank) {
    for (int32_t t = program.firstTbOfRank(rank); t < program.firstTbOfRank(rank + 1); ++t)
      for (const ir::Step& st : program.threadBlock(t).steps)
        if (semantics::communicates(st.type) || st.depid >= 0) return true;
    return false;
  }

  void stepRules(const semantics::LoadedProgram& program, int32_t rank, int32_t t) {
    const ir::ThreadBlock& tb = program.threadBlock(t);
    const auto nsteps = static_cast<int32_t>(tb.steps.size());
    for (int32_t i = 0; i < nsteps; ++i) {
      const ir::Step& st = tb.steps[i];
      const uint32_t s = program.firstStep(t) + static_cast<uint32_t>(i);
      const semantics::LoadedStep& loaded = program.step(s);
      const std::string where = stepName(rank, tb.id, i);
      if (st.s != i)
        f_.error(Check::Limits, "limits.step-numbering", st.where,
                 fmt::format("{}: s={} but the runtime numbers steps by position ({}); dependencies would point at the "
                             "wrong step",
                             where, st.s, i));
      const bool isNop = st.type == OpType::Nop;
      if (!p_.runsRecvCombinedOps && semantics::communicates(st.type) && st.type != OpType::Send &&
          st.type != OpType::Recv)
        f_.error(Check::Limits, "limits.unsupported-op", st.where,
                 fmt::format("{}: '{}' is not in {}'s kernels (built without rcs, rrs, rrc and rrcs): the file loads, "
                             "and every call it is selected for fails at launch",
                             where, ir::opTypeName(st.type), p_.name));
      if (!isNop && st.cnt > p_.maxCount)
        f_.error(Check::Limits, "limits.cnt", st.where,
                 fmt::format("{}: cnt={} exceeds {} (MSCCL_MAX_COUNT-1)", where, st.cnt, p_.maxCount));
      if (!isNop && loaded.cnt >= 1) {
        if (semantics::readsLocalSource(st.type))
          boundsRule(rank, where, loaded, st.srcbuf, st.srcoff, "srcoff", "reads");
        if (semantics::writesLocalDestination(st.type))
          boundsRule(rank, where, loaded, st.dstbuf, st.dstoff, "dstoff", "writes");
      }
      // The parser checks the offsets of every step but rrc against the <gpu>'s own chunk counts
      // (msccl_parser.cc:610-611, mscclCheckBufferBounds at 270-287; microsoft/msccl topo.cc:1099-1100
      // and 725-741): only the offset, -1 included, and only where the step reads or writes locally.
      if (!isNop && st.type != OpType::RecvReduceCopy) {
        const ir::Gpu& g = program.gpu(rank);
        if (semantics::readsLocalSource(st.type))
          parserBoundsRule(g, rank, where, loaded, st.srcbuf, st.srcoff, "srcoff");
        if (semantics::writesLocalDestination(st.type))
          parserBoundsRule(g, rank, where, loaded, st.dstbuf, st.dstoff, "dstoff");
      }
      if (st.depid >= 0) dependencyRules(program, rank, where, st);
      if (st.depid < 0 && (st.depid != -1 || st.deps != -1))
        f_.warning(Check::Format, "format.runtime-parser", st.where,
                   fmt::format("{}: depid={} deps={} is read by the runtime's parser as no dependency (it records one "
                               "only for depid >= 0){}",
                               where, st.depid, st.deps,
                               st.type == OpType::Reduce && st.depid != -1
                                   ? ", and a 're' continues a fused chain only with depid=-1"
                                   : ""));
      // nop rules (msccl-ir.md §1): nops carry dependencies for the next real step.
      if (isNop && st.depid < 0)
        f_.error(Check::Limits, "limits.nop", st.where,
                 fmt::format("{}: a nop without a dependency does nothing and "
                             "shifts the runtime's step numbering",
                             where));
      if (isNop && i == nsteps - 1)
        f_.error(Check::Limits, "limits.nop", st.where,
                 fmt::format("{}: a nop is the last step of its thread block; its dependency is never applied", where));
      if (loaded.type == OpType::Reduce && loaded.chainFirst == i) fusedReduceRules(program, rank, t, i);
    }
  }

  // A fused reduction (semantics/loaded_program.hpp) is one kernel operation over all members.
  void fusedReduceRules(const semantics::LoadedProgram& program, int32_t rank, int32_t t, int32_t first) {
    const ir::ThreadBlock& tb = program.threadBlock(t);
    const semantics::LoadedStep& head = program.step(program.firstStep(t) + static_cast<uint32_t>(first));
    if (head.chainLength < 2) return;
    const std::string where = stepName(rank, tb.id, first);
    std::vector<int32_t> members;
    for (int32_t i = first; i < static_cast<int32_t>(tb.steps.size()); ++i) {
      const semantics::LoadedStep& l = program.step(program.firstStep(t) + static_cast<uint32_t>(i));
      if (l.type == OpType::Reduce && l.chainFirst == first) members.push_back(i);
    }
    for (int32_t i : members) {
      const ir::Step& st = tb.steps[i];
      if (st.cnt != head.cnt)
        f_.error(
            Check::Limits, "limits.fused-reduce", st.where,
            fmt::format("{}: cnt={} is fused by the runtime's parser with the 're' chain from step {}, which moves "
                        "cnt={} (its last member's) for every member (wrong results)",
                        stepName(rank, tb.id, i), st.cnt, first, head.cnt));
      // Offsets and counts are int32 each; their sums are taken in 64 bits.
      const int64_t srcEnd = int64_t{st.srcoff} + head.cnt, dstEnd = int64_t{head.dstoff} + head.cnt;
      if (st.srcbuf == head.dstbuf && st.srcoff < dstEnd && head.dstoff < srcEnd)
        f_.error(Check::Limits, "limits.fused-reduce", st.where,
                 fmt::format("{}: its source {}[{}..{}) overlaps the destination of the fused 're' chain from step {}; "
                             "the kernel reads every source while it writes the destination (result depends on timing)",
                             stepName(rank, tb.id, i), ir::bufferLetter(st.srcbuf), st.srcoff, srcEnd, first));
    }
    if (!p_.fusedReduceSourceArray) return;
    const bool simple = a_.proto == ir::Protocol::Simple;
    const int32_t n = head.chainLength,
                  sourceSlots = semantics::fusedReduceSourceCapacity(a_.proto, p_.maxFusedReduceSources);
    if (n > sourceSlots)
      f_.error(Check::Limits, "limits.fused-reduce", head.where,
               fmt::format("{}: the runtime's parser fuses {} 're' steps into one reduction (it ends a chain only at "
                           "hasdep=1, a dependency, a change of buffer or offset, and its {}th 're' of the block); the "
                           "kernel's source array holds {} sources with {}, so the extra ones overrun it",
                           where, n, p_.maxFusedReduceSources, sourceSlots, ir::protocolName(a_.proto)));
    else if (simple && n == p_.maxFusedReduceSources)
      f_.error(Check::Limits, "limits.fused-reduce", head.where,
               fmt::format("{}: the runtime fuses {} 're' steps into one Simple reduction; with the destination it "
                           "has {} operands, but the Simple primitive reduces at most {}, so the destination's own "
                           "value is dropped once a transfer has more elements than threads",
                           where, n, n + 1, p_.maxFusedReduceSources));
  }

  void boundsRule(int32_t rank, const std::string& where, const semantics::LoadedStep& st, Buffer buf, int32_t off,
                  const char* attr, const char* verb) {
    int32_t len = r_.bufferLengths[rank][static_cast<size_t>(buf)];
    if (off >= 0 && static_cast<int64_t>(off) + st.cnt <= len) return;
    f_.error(Check::Limits, "limits.bounds", st.where,
             fmt::format("{}: '{}' {} {}[{}..{}) ({}={} cnt={}), but the {} buffer has {} chunks", where,
                         ir::opTypeName(st.type), verb, ir::bufferLetter(buf), off, static_cast<int64_t>(off) + st.cnt,
                         attr, off, st.cnt, ir::bufferName(buf), len));
  }

  // Reported where limits.bounds is not (an offset inside the collective's buffer, outside the
  // count the <gpu> declares) and where the offset is stored unchanged (else limits.narrowing).
  void parserBoundsRule(const ir::Gpu& g, int32_t rank, const std::string& where, const semantics::LoadedStep& st,
                        Buffer buf, int32_t off, const char* attr) {
    const int32_t declared = buf == Buffer::Input    ? g.inputChunks
                             : buf == Buffer::Output ? g.outputChunks
                                                     : g.scratchChunks;
    if (off >= -1 && off < declared) return;
    const int32_t len = r_.bufferLengths[rank][static_cast<size_t>(buf)];
    const bool boundsReported = off < 0 || static_cast<int64_t>(off) + st.cnt > len;
    if (boundsReported || off > p_.maxStoredOffset) return;
    f_.error(Check::Limits, "limits.parser-bounds", st.where,
             fmt::format("{}: {}={} is outside the {} buffer's -1..{} by the gpu's own {}={}, which {}'s parser "
                         "checks: the file does not load",
                         where, attr, off, ir::bufferName(buf), declared - 1,
                         buf == Buffer::Input    ? "i_chunks"
                         : buf == Buffer::Output ? "o_chunks"
                                                 : "s_chunks",
                         declared, p_.name));
  }

  void dependencyRules(const semantics::LoadedProgram& program, int32_t rank, const std::string& where,
                       const ir::Step& st) {
    if (st.depid > p_.maxDepId)
      f_.error(Check::Limits, "limits.depid-int8", st.where,
               fmt::format("{}: depid={} is stored as int8 by {} and wraps to {}", where, st.depid, p_.name,
                           st.depid - 256));
    const int32_t target = program.globalTb(rank, st.depid);
    const uint32_t publisher = program.publisherOf(semantics::FlagWait{target, st.deps});
    if (publisher != semantics::kNoStep && program.indexInTb(publisher) == st.deps) return;
    if (publisher != semantics::kNoStep)
      f_.warning(Check::Limits, "limits.hasdep", st.where,
                 fmt::format("{}: depends on tb {} step {}, which publishes no flag of that step; it waits until step "
                             "{} (the next with hasdep=1) instead",
                             where, st.depid, st.deps, program.indexInTb(publisher)));
    else
      f_.error(
          Check::Limits, "limits.hasdep", st.where,
          fmt::format("{}: depends on tb {} step {}, but no step from there on publishes a flag that far (hasdep=1): "
                      "the flag it waits for is only published in the next tile iteration, and never after the last",
                      where, st.depid, st.deps));
  }

  const ir::Algorithm& a_;
  const std::optional<semantics::Collective>& collective_;
  const Options& o_;
  const semantics::RuntimeProfile& p_;
  Findings& f_;
  LintResult r_;
};

}  // namespace

LintResult lint(const semantics::LoadResult& load, const ir::Algorithm& algo,
                const std::vector<ir::RuntimeParserIssue>& parserIssues,
                const std::optional<semantics::Collective>& collective, const Options& options, Findings& findings) {
  return Linter(algo, collective, options, findings).run(load, parserIssues);
}

}  // namespace ccforge::verify
