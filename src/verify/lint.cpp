#include "semantics/step_kinds.hpp"
#include "verify/lint.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "ir/names.hpp"

namespace ccforge::verify {
namespace {

using ir::Buffer;
using ir::OpType;

std::string stepName(int32_t rank, int32_t tb, int32_t step) {
  return fmt::format("rank {} tb {} step {}", rank, tb, step);
}

class Linter {
 public:
  Linter(const ir::Algorithm& algo, const std::optional<Collective>& collective, const Options& options,
         Findings& findings)
      : a_(algo), collective_(collective), o_(options), p_(options.profile), f_(findings) {}

  LintResult run(const std::vector<ir::RuntimeParserIssue>& parserIssues) {
    for (const auto& issue : parserIssues) f_.error(Check::Format, "format.runtime-parser", issue.where, issue.message);
    headerRules();
    if (!rankRules()) return std::move(r_);
    computeBufferLengths();
    for (int32_t rank = 0; rank < a_.ngpus; ++rank) threadBlockRules(rank);
    r_.structureSound = structureSound_;
    return std::move(r_);
  }

 private:
  void structural(Check check, std::string rule, ir::TextLocation where, std::string message) {
    structureSound_ = false;
    f_.error(check, std::move(rule), where, std::move(message));
  }

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
    if (p_.name == legacyProfile().name && a_.name.size() > 63)
      f_.warning(Check::Format, "format.name-length", a_.where,
                 fmt::format("name is {} characters; {} keeps only the first 63", a_.name.size(), p_.name));
    if (a_.nchannels < 1 || a_.nchannels > p_.maxChannels)
      f_.error(Check::Limits, "limits.channels", a_.where,
               fmt::format("nchannels={} is outside 1..{} (MAXCHANNELS)", a_.nchannels, p_.maxChannels));
    if (a_.nchunksperloop < 1)
      structural(Check::Limits, "limits.nchunksperloop", a_.where,
                 fmt::format("nchunksperloop={} must be at least 1", a_.nchunksperloop));
    int64_t lo = a_.minBytes.value_or(0), hi = a_.maxBytes.value_or(0);
    if (lo < 0 || hi < 0 || (hi != 0 && lo > hi))
      f_.error(Check::Limits, "limits.size-window", a_.where,
               fmt::format("size window minBytes={} maxBytes={} selects no size (maxBytes=0 means unbounded)", lo, hi));
    if (!a_.servesInPlace() && !a_.servesOutOfPlace())
      f_.error(Check::Limits, "limits.call-form", a_.where,
               "inplace=0 and outofplace=0: the algorithm serves no call and is never selected");
  }

  bool rankRules() {
    if (a_.ngpus < 1) {
      structural(Check::Limits, "limits.ngpus", a_.where, fmt::format("ngpus={} must be at least 1", a_.ngpus));
      return false;
    }
    if (a_.ngpus > p_.maxChildrenPerElement || a_.gpus.size() > static_cast<size_t>(p_.maxChildrenPerElement))
      f_.error(Check::Format, "format.children", a_.where,
               fmt::format("more than {} <gpu> elements: the runtime's parser stops there", p_.maxChildrenPerElement));
    if (static_cast<int64_t>(a_.gpus.size()) != a_.ngpus)
      structural(Check::Limits, "limits.ngpus", a_.where,
                 fmt::format("ngpus={} but the file has {} <gpu> elements", a_.ngpus, a_.gpus.size()));
    r_.gpuOfRank.assign(static_cast<size_t>(std::max(a_.ngpus, 0)), -1);
    for (size_t i = 0; i < a_.gpus.size(); ++i) {
      const ir::Gpu& g = a_.gpus[i];
      if (g.id < 0 || g.id >= a_.ngpus) {
        structural(Check::Limits, "limits.gpu-id", g.where, fmt::format("gpu id={} is outside 0..{}", g.id, a_.ngpus - 1));
      } else if (r_.gpuOfRank[g.id] >= 0) {
        structural(Check::Limits, "limits.gpu-id", g.where,
                   fmt::format("gpu id={} appears twice (first at line {})", g.id,
                               a_.gpus[r_.gpuOfRank[g.id]].where.line));
      } else {
        r_.gpuOfRank[g.id] = static_cast<int32_t>(i);
      }
      if (g.inputChunks < 0 || g.outputChunks < 0 || g.scratchChunks < 0)
        structural(Check::Limits, "limits.chunk-counts", g.where,
                   fmt::format("gpu {}: negative buffer size (i_chunks={} o_chunks={} s_chunks={})", g.id,
                               g.inputChunks, g.outputChunks, g.scratchChunks));
    }
    for (int32_t r = 0; r < a_.ngpus && structureSound_; ++r)
      if (r_.gpuOfRank[r] < 0) structural(Check::Limits, "limits.gpu-id", a_.where, fmt::format("no <gpu id=\"{}\">", r));
    if (structureSound_ && collective_) chunkCountRules();
    return structureSound_;
  }

  void chunkCountRules() {
    // In place, the buffer that lives inside the other one may be declared with 0 chunks.
    bool gathers = collective_->type() == CollectiveType::AllGather || collective_->type() == CollectiveType::Gather;
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = gpu(r);
      bool inOk = g.inputChunks == collective_->inputChunks() || (a_.servesInPlace() && gathers && g.inputChunks == 0);
      bool outOk =
          g.outputChunks == collective_->outputChunks() || (a_.servesInPlace() && !gathers && g.outputChunks == 0);
      if (inOk && outOk) continue;
      std::string message =
          fmt::format("gpu {}: i_chunks={} o_chunks={}, but {} with nchunksperloop={} on {} ranks has {} input and {} "
                      "output chunks",
                      r, g.inputChunks, g.outputChunks, collective_->describe(), a_.nchunksperloop, a_.ngpus,
                      collective_->inputChunks(), collective_->outputChunks());
      if (p_.checksChunkCounts)
        f_.error(Check::Limits, "limits.chunk-counts", g.where, message + fmt::format(" ({} rejects this)", p_.name));
      else
        f_.warning(Check::Limits, "limits.chunk-counts", g.where, message + " (informational for " + p_.name + ")");
    }
  }

  void computeBufferLengths() {
    r_.bufferLengths.resize(a_.ngpus);
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = gpu(r);
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

  const ir::Gpu& gpu(int32_t rank) const { return a_.gpus[r_.gpuOfRank[rank]]; }

  void threadBlockRules(int32_t rank) {
    const ir::Gpu& g = gpu(rank);
    const auto ntbs = static_cast<int32_t>(g.threadBlocks.size());
    int32_t coResident = o_.maxCoResidentThreadBlocks.value_or(p_.maxCoResidentThreadBlocks);
    if (ntbs > p_.maxThreadBlocksPerRank)
      f_.error(Check::Limits, "limits.tbs-per-rank", g.where,
               fmt::format("gpu {} has {} thread blocks; {} allows {}", rank, ntbs, p_.name, p_.maxThreadBlocksPerRank));
    else if (ntbs > coResident)
      f_.error(Check::Limits, "limits.co-residency", g.where,
               fmt::format("gpu {} has {} thread blocks, but only {} can be resident at once (--max-tbs); its blocks "
                           "wait on each other, so the kernel would hang",
                           rank, ntbs, coResident));
    std::vector<int32_t>& position = tbPosition_;
    position.assign(static_cast<size_t>(ntbs), -1);
    for (int32_t i = 0; i < ntbs; ++i) {
      const ir::ThreadBlock& tb = g.threadBlocks[i];
      if (tb.id < 0 || tb.id >= ntbs)
        structural(Check::Limits, "limits.tb-id", tb.where,
                   fmt::format("gpu {}: tb id={} is outside 0..{} (ids must be dense)", rank, tb.id, ntbs - 1));
      else if (position[tb.id] >= 0)
        structural(Check::Limits, "limits.tb-id", tb.where, fmt::format("gpu {}: tb id={} appears twice", rank, tb.id));
      else
        position[tb.id] = i;
    }
    if (!structureSound_) return;
    std::map<int32_t, int32_t> sendersPerChannel, receiversPerChannel;
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      peerRules(rank, tb);
      if (tb.chan < 0 || tb.chan >= a_.nchannels || tb.chan >= p_.maxChannels)
        f_.error(Check::Limits, "limits.channels", tb.where,
                 fmt::format("gpu {} tb {}: chan={} is outside 0..{} (nchannels={}, MAXCHANNELS={})", rank, tb.id,
                             tb.chan, std::min(a_.nchannels, p_.maxChannels) - 1, a_.nchannels, p_.maxChannels));
      if (tb.send >= 0) ++sendersPerChannel[tb.chan];
      if (tb.recv >= 0) ++receiversPerChannel[tb.chan];
      if (static_cast<int64_t>(tb.steps.size()) > p_.maxStepsPerThreadBlock)
        f_.error(Check::Limits, "limits.steps-per-tb", tb.where,
                 fmt::format("gpu {} tb {} has {} steps; {} allows {} per thread block", rank, tb.id, tb.steps.size(),
                             p_.name, p_.maxStepsPerThreadBlock));
      stepRules(rank, g, tb);
    }
    auto perChannel = [&](const std::map<int32_t, int32_t>& counts, int32_t limit, const char* what) {
      for (const auto& [chan, n] : counts)
        if (n > limit)
          f_.error(Check::Limits, "limits.tbs-per-channel", g.where,
                   fmt::format("gpu {}: {} thread blocks {} on channel {}; the runtime allows {}", rank, n, what, chan,
                               limit));
    };
    perChannel(sendersPerChannel, p_.maxPeersPerChannel, "send");
    perChannel(receiversPerChannel, p_.maxPeersPerChannel, "receive");
  }

  void peerRules(int32_t rank, const ir::ThreadBlock& tb) {
    auto check = [&](int32_t peer, const char* what) {
      if (peer == -1) return;
      if (peer < 0 || peer >= a_.ngpus)
        structural(Check::Limits, "limits.peer", tb.where,
                   fmt::format("gpu {} tb {}: {}={} is not a rank (0..{}) or -1", rank, tb.id, what, peer, a_.ngpus - 1));
      else if (peer == rank)
        structural(Check::Limits, "limits.peer", tb.where,
                   fmt::format("gpu {} tb {}: {}={} is the block's own rank", rank, tb.id, what, peer));
    };
    check(tb.send, "send");
    check(tb.recv, "recv");
  }

  void stepRules(int32_t rank, const ir::Gpu& g, const ir::ThreadBlock& tb) {
    const auto nsteps = static_cast<int32_t>(tb.steps.size());
    bool inNopRun = false;
    FusedReduceChain chain;
    for (int32_t i = 0; i < nsteps; ++i) {
      const ir::Step& st = tb.steps[i];
      const std::string where = stepName(rank, tb.id, i);
      if (st.s != i)
        f_.error(Check::Limits, "limits.step-numbering", st.where,
                 fmt::format("{}: s={} but the runtime numbers steps by position ({}); dependencies would point at the "
                             "wrong step",
                             where, st.s, i));
      bool isNop = st.type == OpType::Nop;
      if (!isNop) {
        if (st.cnt < 1)
          structural(Check::Limits, "limits.cnt", st.where, fmt::format("{}: cnt={} must be at least 1", where, st.cnt));
        else if (st.cnt > p_.maxCount)
          f_.error(Check::Limits, "limits.cnt", st.where,
                   fmt::format("{}: cnt={} exceeds {} (MSCCL_MAX_COUNT-1)", where, st.cnt, p_.maxCount));
      }
      if (sends(st.type) && tb.send < 0)
        structural(Check::Limits, "limits.peer", st.where,
                   fmt::format("{}: '{}' sends, but the thread block has send=-1", where, ir::opTypeName(st.type)));
      if (receives(st.type) && tb.recv < 0)
        structural(Check::Limits, "limits.peer", st.where,
                   fmt::format("{}: '{}' receives, but the thread block has recv=-1", where, ir::opTypeName(st.type)));
      if (!isNop && st.cnt >= 1) {
        if (readsLocalSource(st.type)) boundsRule(rank, where, st, st.srcbuf, st.srcoff, "srcoff", "reads");
        if (writesLocalDestination(st.type)) boundsRule(rank, where, st, st.dstbuf, st.dstoff, "dstoff", "writes");
      }
      dependencyRules(rank, g, tb, i);
      // nop rules (msccl-ir.md §1): nops carry dependencies for the next real step.
      if (isNop && st.depid < 0)
        f_.error(Check::Limits, "limits.nop", st.where, fmt::format("{}: a nop without a dependency does nothing and "
                                                                    "shifts the runtime's step numbering", where));
      if (isNop && i == nsteps - 1)
        f_.error(Check::Limits, "limits.nop", st.where,
                 fmt::format("{}: a nop is the last step of its thread block; its dependency is never applied", where));
      if (!isNop && inNopRun && st.depid < 0)
        f_.error(Check::Limits, "limits.nop", st.where,
                 fmt::format("{}: closes a run of nops but has no dependency of its own; the loader rejects the file",
                             where));
      inNopRun = isNop;
      chain.visit(*this, where, st);
    }
  }

  // Consecutive `re` steps that the loader fuses into one multi-source reduction, which keeps
  // only the last step's cnt (msccl-ir.md §1).
  struct FusedReduceChain {
    bool active = false;
    ir::Buffer dstbuf{}, srcbuf{};
    int32_t dstoff = 0, cnt = 0, first = 0, length = 0;
    void visit(Linter& l, const std::string& where, const ir::Step& st) {
      bool continues = active && st.type == OpType::Reduce && st.dstbuf == dstbuf && st.dstoff == dstoff &&
                       st.srcbuf == srcbuf && st.depid == -1;
      if (continues) {
        ++length;
        if (st.cnt != cnt)
          l.f_.error(Check::Limits, "limits.fused-reduce", st.where,
                     fmt::format("{}: cnt={} continues a chain of 're' steps fused by the loader from step {} with "
                                 "cnt={}; the fused reduction uses the last cnt for all of them (wrong results)",
                                 where, st.cnt, first, cnt));
      } else if (st.type == OpType::Reduce) {
        active = true;
        dstbuf = st.dstbuf;
        srcbuf = st.srcbuf;
        dstoff = st.dstoff;
        cnt = st.cnt;
        first = st.s;
        length = 1;
      } else {
        active = false;
      }
      if (active && (st.hasdep || length == l.p_.maxFusedReduceSources)) active = false;
    }
  };

  void boundsRule(int32_t rank, const std::string& where, const ir::Step& st, Buffer buf, int32_t off,
                  const char* attr, const char* verb) {
    int32_t len = r_.bufferLengths[rank][static_cast<size_t>(buf)];
    if (off >= 0 && static_cast<int64_t>(off) + st.cnt <= len) return;
    f_.error(Check::Limits, "limits.bounds", st.where,
             fmt::format("{}: '{}' {} {}[{}..{}) ({}={} cnt={}), but the {} buffer has {} chunks", where,
                         ir::opTypeName(st.type), verb, ir::bufferLetter(buf), off, static_cast<int64_t>(off) + st.cnt,
                         attr, off, st.cnt, ir::bufferName(buf), len));
  }

  void dependencyRules(int32_t rank, const ir::Gpu& g, const ir::ThreadBlock& tb, int32_t i) {
    const ir::Step& st = tb.steps[i];
    const std::string where = stepName(rank, tb.id, i);
    if ((st.depid < 0) != (st.deps < 0) || st.depid < -1 || st.deps < -1) {
      structural(Check::Limits, "limits.dependency", st.where,
                 fmt::format("{}: depid={} deps={}: both must be -1 (no dependency) or both set", where, st.depid,
                             st.deps));
      return;
    }
    if (st.depid < 0) return;
    if (st.depid >= static_cast<int32_t>(g.threadBlocks.size())) {
      structural(Check::Limits, "limits.dependency", st.where,
                 fmt::format("{}: depid={} names no thread block of gpu {}", where, st.depid, rank));
      return;
    }
    if (st.depid > p_.maxDepId)
      f_.error(Check::Limits, "limits.depid-int8", st.where,
               fmt::format("{}: depid={} is stored as int8 by {} and wraps to {}", where, st.depid, p_.name,
                           st.depid - 256));
    const ir::ThreadBlock& target = threadBlockById(g, st.depid);
    if (st.deps >= static_cast<int32_t>(target.steps.size())) {
      structural(Check::Limits, "limits.dependency", st.where,
                 fmt::format("{}: deps={} but tb {} has {} steps", where, st.deps, st.depid, target.steps.size()));
      return;
    }
    if (target.steps[st.deps].hasdep) return;
    int32_t later = -1;
    for (int32_t k = st.deps + 1; k < static_cast<int32_t>(target.steps.size()) && later < 0; ++k)
      if (target.steps[k].hasdep) later = k;
    if (later >= 0)
      f_.warning(Check::Limits, "limits.hasdep", st.where,
                 fmt::format("{}: depends on tb {} step {}, which has hasdep=0; it waits until step {} (the next with "
                             "hasdep=1) instead",
                             where, st.depid, st.deps, later));
    else
      f_.error(Check::Limits, "limits.hasdep", st.where,
               fmt::format("{}: depends on tb {} step {}, but no step from there on has hasdep=1: the flag it waits "
                           "for is only published in the next tile iteration, and never after the last",
                           where, st.depid, st.deps));
  }

  // Valid once the rank's tb ids were found dense and unique.
  const ir::ThreadBlock& threadBlockById(const ir::Gpu& g, int32_t id) const {
    return g.threadBlocks[tbPosition_[id]];
  }

  const ir::Algorithm& a_;
  const std::optional<Collective>& collective_;
  const Options& o_;
  const RuntimeProfile& p_;
  Findings& f_;
  LintResult r_;
  bool structureSound_ = true;
  std::vector<int32_t> tbPosition_;  // of the rank being checked: position of <tb id=k>
};

}  // namespace

LintResult lint(const ir::Algorithm& algo, const std::vector<ir::RuntimeParserIssue>& parserIssues,
                const std::optional<Collective>& collective, const Options& options, Findings& findings) {
  return Linter(algo, collective, options, findings).run(parserIssues);
}

}  // namespace ccforge::verify
