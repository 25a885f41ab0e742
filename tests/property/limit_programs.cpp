#include "limit_programs.hpp"

#include <string>

#include "ir/names.hpp"
#include "rng.hpp"

namespace ccforge::property {
namespace {

using ir::Buffer;
using ir::OpType;

ir::Step step(OpType type, Buffer src, int32_t srcoff, Buffer dst, int32_t dstoff, int32_t cnt, int32_t depid = -1,
              int32_t deps = -1, bool hasdep = false) {
  ir::Step s;
  s.type = type;
  s.srcbuf = src, s.srcoff = srcoff, s.dstbuf = dst, s.dstoff = dstoff, s.cnt = cnt;
  s.depid = depid, s.deps = deps, s.hasdep = hasdep;
  return s;
}

ir::ThreadBlock block(int32_t id, int32_t send, int32_t recv, std::vector<ir::Step> steps) {
  ir::ThreadBlock tb;
  tb.id = id, tb.send = send, tb.recv = recv, tb.chan = 0;
  for (size_t i = 0; i < steps.size(); ++i) steps[i].s = static_cast<int32_t>(i);
  tb.steps = std::move(steps);
  return tb;
}

ir::Algorithm header(const std::string& name, semantics::CollectiveType type, int32_t ranks, int32_t chunks, Rng& rng) {
  ir::Algorithm a;
  a.name = name;
  a.proto = rng.chance(50) ? ir::Protocol::Simple : rng.chance(50) ? ir::Protocol::LL : ir::Protocol::LL128;
  a.nchannels = 1;
  a.nchunksperloop = chunks;
  a.ngpus = ranks;
  a.coll = irKindOf(type);
  a.collName = std::string(ir::collectiveName(a.coll));
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = 0;
  a.maxBytes = 0;
  return a;
}

// Allreduce on two ranks, every transfer and local step over all C chunks at once.
GeneratedProgram bigCount(Rng& rng, const std::string& name) {
  const int32_t c = rng.between(64, 76);
  GeneratedProgram out{
      header(name, semantics::CollectiveType::AllReduce, 2, c, rng), semantics::CollectiveType::AllReduce, 0, {}, {}};
  for (int32_t r = 0; r < 2; ++r) {
    ir::Gpu g;
    g.id = r, g.inputChunks = c, g.outputChunks = c, g.scratchChunks = c;
    g.threadBlocks = {block(0, 1 - r, -1, {step(OpType::Send, Buffer::Input, 0, Buffer::Scratch, 0, c)}),
                      block(1, -1, 1 - r, {step(OpType::Recv, Buffer::Input, 0, Buffer::Scratch, 0, c, -1, -1, true)}),
                      block(2, -1, -1,
                            {step(OpType::Copy, Buffer::Input, 0, Buffer::Output, 0, c),
                             step(OpType::Reduce, Buffer::Scratch, 0, Buffer::Output, 0, c, 1, 0)})};
    out.algorithm.gpus.push_back(std::move(g));
  }
  out.mutations.push_back("at the limits: one transfer of " + std::to_string(c) + " chunks");
  return out;
}

// Reduce of two chunks to rank 0 from k other ranks: rank 0 receives each rank's pair into scratch
// and adds them up in two runs of k `re` steps in one block.
GeneratedProgram longRuns(Rng& rng, const std::string& name) {
  const int32_t k = rng.between(12, 19);
  GeneratedProgram out{
      header(name, semantics::CollectiveType::Reduce, k + 1, 2, rng), semantics::CollectiveType::Reduce, 0, {}, {}};
  ir::Gpu root;
  root.id = 0, root.inputChunks = 2, root.outputChunks = 2, root.scratchChunks = 2 * k;
  std::vector<ir::Step> sum{step(OpType::Copy, Buffer::Input, 0, Buffer::Output, 0, 2)};
  for (int32_t q = 1; q < k; ++q) sum.push_back(step(OpType::Nop, Buffer::Input, -1, Buffer::Input, -1, 0, q, 0));
  for (int32_t chunk = 0; chunk < 2; ++chunk)
    for (int32_t q = 1; q <= k; ++q)
      sum.push_back(step(OpType::Reduce, Buffer::Scratch, 2 * (q - 1) + chunk, Buffer::Output, chunk, 1,
                         chunk == 0 && q == 1 ? k : -1, chunk == 0 && q == 1 ? 0 : -1));
  root.threadBlocks.push_back(block(0, -1, -1, std::move(sum)));
  for (int32_t q = 1; q <= k; ++q)
    root.threadBlocks.push_back(
        block(q, -1, q, {step(OpType::Recv, Buffer::Input, 0, Buffer::Scratch, 2 * (q - 1), 2, -1, -1, true)}));
  out.algorithm.gpus.push_back(std::move(root));
  for (int32_t q = 1; q <= k; ++q) {
    ir::Gpu g;
    g.id = q, g.inputChunks = 2, g.outputChunks = 2, g.scratchChunks = 0;
    g.threadBlocks = {block(0, 0, -1, {step(OpType::Send, Buffer::Input, 0, Buffer::Scratch, 0, 2)})};
    out.algorithm.gpus.push_back(std::move(g));
  }
  out.mutations.push_back("at the limits: two runs of " + std::to_string(k) + " reductions in one block");
  return out;
}

// Allreduce on two ranks, one chunk per transfer: a sending and a receiving block of S steps each.
GeneratedProgram manySteps(Rng& rng, const std::string& name) {
  const int32_t s = rng.between(56, 70);
  constexpr int32_t kPerLocalStep = 32;
  GeneratedProgram out{
      header(name, semantics::CollectiveType::AllReduce, 2, s, rng), semantics::CollectiveType::AllReduce, 0, {}, {}};
  for (int32_t r = 0; r < 2; ++r) {
    std::vector<ir::Step> sends, receives, local;
    for (int32_t k = 0; k < s; ++k) {
      sends.push_back(step(OpType::Send, Buffer::Input, k, Buffer::Scratch, k, 1));
      receives.push_back(step(OpType::Recv, Buffer::Input, 0, Buffer::Scratch, k, 1, -1, -1, true));
    }
    for (int32_t k = 0; k < s; k += kPerLocalStep) {
      const int32_t n = std::min(kPerLocalStep, s - k);
      local.push_back(step(OpType::Copy, Buffer::Input, k, Buffer::Output, k, n));
      local.push_back(step(OpType::Reduce, Buffer::Scratch, k, Buffer::Output, k, n, 1, k + n - 1));
    }
    ir::Gpu g;
    g.id = r, g.inputChunks = s, g.outputChunks = s, g.scratchChunks = s;
    g.threadBlocks = {block(0, 1 - r, -1, std::move(sends)), block(1, -1, 1 - r, std::move(receives)),
                      block(2, -1, -1, std::move(local))};
    out.algorithm.gpus.push_back(std::move(g));
  }
  out.mutations.push_back("at the limits: blocks of " + std::to_string(s) + " steps");
  return out;
}

}  // namespace

GeneratedProgram generateAtLimits(uint64_t seed) {
  Rng rng(seed);
  const std::string name = "property-limits-" + std::to_string(seed);
  switch (rng.below(3)) {
    case 0: return bigCount(rng, name);
    case 1: return longRuns(rng, name);
    default: return manySteps(rng, name);
  }
}

}  // namespace ccforge::property
