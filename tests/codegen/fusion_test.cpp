// Peephole fusion produces the instructions a hand-written ring would use.
#include <catch2/catch.hpp>

#include "semantics/step_kinds.hpp"
#include "compile_support.hpp"

using namespace ccforge;
using ir::Buffer;
using ir::OpType;

namespace {

std::vector<OpType> types(const ir::ThreadBlock& tb) {
  std::vector<OpType> out;
  for (const ir::Step& s : tb.steps) out.push_back(s.type);
  return out;
}

size_t countType(const ir::Algorithm& a, OpType t) {
  size_t n = 0;
  for (const ir::Gpu& g : a.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps) n += s.type == t;
  return n;
}

}  // namespace

TEST_CASE("ring allreduce on 4 ranks is the classic ring: s, rrs, rrs, rrcs, rcs, rcs, r") {
  // Rank 0 sends chunk 0; chunks 3 and 2 pass through partially reduced (the sum is overwritten by
  // the final value later, so it is not stored); chunk 1 completes here and is stored and
  // forwarded; the final values of chunks 0 and 3 pass through; chunk 2 arrives last.
  const codegen::Compiled c = testing::compileVerified("ring-allreduce", {"ranks=4"});
  REQUIRE(c.algorithm.gpus[0].threadBlocks.size() == 1);
  const ir::ThreadBlock& tb = c.algorithm.gpus[0].threadBlocks[0];
  CHECK(tb.send == 1);
  CHECK(tb.recv == 3);
  CHECK(types(tb) == std::vector<OpType>{OpType::Send, OpType::RecvReduceSend, OpType::RecvReduceSend,
                                         OpType::RecvReduceCopySend, OpType::RecvCopySend, OpType::RecvCopySend,
                                         OpType::Recv});
  std::vector<int32_t> chunks;
  for (const ir::Step& s : tb.steps) chunks.push_back(s.type == OpType::Recv ? s.dstoff : s.srcoff);
  CHECK(chunks == std::vector<int32_t>{0, 3, 2, 1, 0, 3, 2});
  // The local operand of every receive-reduce is the destination itself (never the sender's slot).
  for (const ir::Step& s : tb.steps)
    if (s.type == OpType::RecvReduceSend || s.type == OpType::RecvReduceCopySend)
      CHECK((s.srcbuf == Buffer::Input && s.srcoff == s.dstoff));
}

TEST_CASE("out-of-place ring reduce-scatter forwards every partial sum without storing it") {
  // 8 chunks, each reduced on 6 intermediate ranks: 48 rrs; the last rank reduces into its output.
  const codegen::Compiled c = testing::compileVerified("ring-reducescatter", {"ranks=8", "inplace=0"});
  CHECK(countType(c.algorithm, OpType::RecvReduceSend) == 48);
  CHECK(countType(c.algorithm, OpType::RecvReduceCopySend) == 0);
  CHECK(countType(c.algorithm, OpType::RecvReduceCopy) == 8);
  for (const ir::Gpu& g : c.algorithm.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps)
        if (semantics::writesLocalDestination(s.type)) CHECK(s.dstbuf != Buffer::Input);  // inputs stay untouched
}

TEST_CASE("a receive and a send on different channels are not fused") {
  dsl::Program p("split", {.type = semantics::CollectiveType::AllGather,
                           .ranks = 3,
                           .chunkFactor = 1,
                           .form = semantics::CallForm::InPlace});
  for (int32_t r = 0; r < 3; ++r) {
    auto c = p.chunk(r, Buffer::Input, 0).copy((r + 1) % 3, Buffer::Output, r, {.ch = 0});
    c.copy((r + 2) % 3, Buffer::Output, r, {.ch = 1});
  }
  const codegen::Compiled c = codegen::compile(p);
  CHECK(countType(c.algorithm, OpType::RecvCopySend) == 0);
  CHECK(countType(c.algorithm, OpType::Recv) == 6);
  CHECK(c.algorithm.nchannels == 2);
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);

  dsl::Program q("same", {.type = semantics::CollectiveType::AllGather,
                          .ranks = 3,
                          .chunkFactor = 1,
                          .form = semantics::CallForm::InPlace});
  for (int32_t r = 0; r < 3; ++r)
    q.chunk(r, Buffer::Input, 0).copy((r + 1) % 3, Buffer::Output, r).copy((r + 2) % 3, Buffer::Output, r);
  CHECK(countType(codegen::compile(q).algorithm, OpType::RecvCopySend) == 3);
}

TEST_CASE("a chain that comes back to a rank with the same send peer and another receive peer is cut there") {
  // Rank 1's chunk goes 1 -> 0 -> 2 -> 3 and on into scratch 3 -> 0 -> 2. One chain of forwards runs
  // in one thread block per rank, so rank 0 would forward from 1 to 2 and from 3 to 2 in one thread
  // block with two receive peers, on every channel (this did not compile). The second forward on
  // rank 0 stays a receive and a send; the three forwards before it are fused.
  dsl::Program p("back", {.type = semantics::CollectiveType::AllGather,
                          .ranks = 4,
                          .chunkFactor = 1,
                          .form = semantics::CallForm::InPlace});
  p.chunk(1, Buffer::Input, 0)
      .copy(0, Buffer::Output, 1)
      .copy(2, Buffer::Output, 1)
      .copy(3, Buffer::Output, 1)
      .copy(0, Buffer::Scratch, 0)
      .copy(2, Buffer::Scratch, 0);
  for (int32_t r : {0, 2, 3})
    for (int32_t d = 0; d < 4; ++d)
      if (d != r) p.chunk(r, Buffer::Input, 0).copy(d, Buffer::Output, r);
  const codegen::Compiled c = codegen::compile(p);
  CHECK(countType(c.algorithm, OpType::RecvCopySend) == 3);
  int32_t scratchSends = 0;
  for (const ir::ThreadBlock& tb : c.algorithm.gpus[0].threadBlocks)
    for (const ir::Step& s : tb.steps) scratchSends += s.type == OpType::Send && s.srcbuf == Buffer::Scratch;
  CHECK(scratchSends == 1);
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);
}

TEST_CASE("a chunk received once and sent to two ranks fuses with one of the sends") {
  // Binomial broadcast on 4 ranks from 0: 0->2, then 0->1 and 2->3. Rank 2 receives and forwards.
  const codegen::Compiled c = testing::compileVerified("binomial-broadcast", {"ranks=4"});
  CHECK(countType(c.algorithm, OpType::RecvCopySend) == 1);
  CHECK(countType(c.algorithm, OpType::Recv) == 2);
  CHECK(countType(c.algorithm, OpType::Send) == 2);
}

namespace {

// Reduce-scatter on 2 ranks, out of place: rank i sums chunk i in scratch, starting from a copy of
// its own input, and copies the sum to its output. With `secondReader` the copy is also read by
// another copy, so the rrc cannot take its place.
dsl::Program sumInScratch(bool secondReader) {
  dsl::Program p("scratch", {.type = semantics::CollectiveType::ReduceScatter,
                             .ranks = 2,
                             .chunkFactor = 1,
                             .form = semantics::CallForm::OutOfPlace});
  for (int32_t i = 0; i < 2; ++i) {
    const dsl::ChunkRef own = p.chunk(i, Buffer::Input, i).copy(i, Buffer::Scratch, 0);
    if (secondReader) own.copy(i, Buffer::Scratch, 1);
    own.reduce(p.chunk(1 - i, Buffer::Input, i)).copy(i, Buffer::Output, 0);
  }
  return p;
}

}  // namespace

TEST_CASE("a local copy whose only reader is a receive-reduce becomes that rrc's local operand") {
  // y = copy(x); y += recv  ->  rrc y = x + recv: the input is read, never written, and one
  // step is saved per rank.
  const dsl::Program p = sumInScratch(false);
  const codegen::Compiled c = codegen::compile(p);
  CHECK(c.stats.fusedCopies == 2);
  CHECK(countType(c.algorithm, OpType::RecvReduceCopy) == 2);
  CHECK(countType(c.algorithm, OpType::Copy) == 2);  // the sums to the outputs
  for (const ir::Gpu& g : c.algorithm.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps)
        if (s.type == OpType::RecvReduceCopy) {
          CHECK((s.srcbuf == Buffer::Input && s.srcoff == g.id));
          CHECK((s.dstbuf == Buffer::Scratch && s.dstoff == 0));
        }
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);

  // A second reader of the copy keeps it.
  const dsl::Program q = sumInScratch(true);
  const codegen::Compiled kept = codegen::compile(q);
  CHECK(kept.stats.fusedCopies == 0);
  CHECK(countType(kept.algorithm, OpType::Copy) == 6);
  CHECK(testing::verifyCompiled(kept.algorithm, q, "msccl-executor").verdict == verify::Verdict::Verified);
}
