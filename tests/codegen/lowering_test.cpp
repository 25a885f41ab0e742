// Lowering: granularity, replication, canonical buffers, the cnt limit, the header per target.
#include <catch2/catch.hpp>

#include "compile_support.hpp"

using namespace ccforge;
using ir::Buffer;
using ir::OpType;

namespace {

template <typename F>
void forEachStep(const ir::Algorithm& a, F f) {
  for (const ir::Gpu& g : a.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps) f(g, tb, s);
}

}  // namespace

TEST_CASE("in place, every buffer reference names the one buffer that spans the memory") {
  const codegen::Compiled ag = testing::compileVerified("ring-allgather", {"ranks=4"});
  forEachStep(ag.algorithm, [](const ir::Gpu&, const ir::ThreadBlock&, const ir::Step& s) {
    if (s.type != OpType::Nop) CHECK((s.srcbuf == Buffer::Output && s.dstbuf == Buffer::Output));
  });
  CHECK(ag.algorithm.gpus[1].inputChunks == 1);
  CHECK(ag.algorithm.gpus[1].outputChunks == 4);
  const codegen::Compiled ar = testing::compileVerified("ring-allreduce", {"ranks=4"});
  forEachStep(ar.algorithm, [](const ir::Gpu&, const ir::ThreadBlock&, const ir::Step& s) {
    CHECK((s.srcbuf == Buffer::Input && s.dstbuf == Buffer::Input));
  });
}

TEST_CASE("instances cut every chunk and put each replica on its own channel") {
  const codegen::Compiled one = testing::compileVerified("ring-allreduce", {"ranks=4"});
  const codegen::Compiled two = testing::compileVerified("ring-allreduce", {"ranks=4", "instances=2"});
  CHECK(two.algorithm.nchunksperloop == 8);
  CHECK(two.algorithm.nchannels == 2);
  CHECK(two.algorithm.stepCount() == 2 * one.algorithm.stepCount());
  // Replica k of DSL chunk i is compiled chunk 2i+k, on channel k.
  forEachStep(two.algorithm, [](const ir::Gpu&, const ir::ThreadBlock& tb, const ir::Step& s) {
    CHECK(s.cnt == 1);
    const int32_t chunk = s.type == OpType::Recv ? s.dstoff : s.srcoff;
    CHECK(chunk % 2 == tb.chan);
  });
}

TEST_CASE("parallelize splits a fragment's operations over distinct channels") {
  dsl::Program p("par", {.type = semantics::CollectiveType::AllToAll, .ranks = 2, .chunkFactor = 2});
  p.parallelize(2, [&] {
    p.chunk(0, Buffer::Input, 2, 2).copy(1, Buffer::Output, 0);
    p.chunk(1, Buffer::Input, 0, 2).copy(0, Buffer::Output, 2);
  });
  p.chunk(0, Buffer::Input, 0, 2).copy(0, Buffer::Output, 0);
  p.chunk(1, Buffer::Input, 2, 2).copy(1, Buffer::Output, 2);
  const codegen::Compiled c = codegen::compile(p);
  CHECK(c.algorithm.nchunksperloop == 8);  // each chunk cut in 2
  CHECK(c.algorithm.nchannels == 2);
  std::vector<std::pair<int32_t, int32_t>> sends;  // (channel, offset) on rank 0
  for (const ir::ThreadBlock& tb : c.algorithm.gpus[0].threadBlocks)
    for (const ir::Step& s : tb.steps) {
      if (s.type == OpType::Send) sends.emplace_back(tb.chan, s.srcoff);
      if (s.type == OpType::Send) CHECK(s.cnt == 2);
      if (s.type == OpType::Copy) CHECK(s.cnt == 4);  // outside the fragment: one piece of 2 DSL chunks
    }
  std::sort(sends.begin(), sends.end());
  CHECK(sends == std::vector<std::pair<int32_t, int32_t>>{{0, 4}, {1, 6}});
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);
}

TEST_CASE("an aggregated transfer over the cnt limit is split into steps of at most 71 chunks") {
  dsl::Program p("big", {.type = semantics::CollectiveType::Broadcast,
                         .ranks = 2,
                         .chunkFactor = 100,
                         .form = semantics::CallForm::InPlace});
  p.chunk(0, Buffer::Input, 0, 100).copy(1, Buffer::Output, 0);
  const codegen::Compiled c = codegen::compile(p);
  std::vector<std::pair<int32_t, int32_t>> sends;
  forEachStep(c.algorithm, [&](const ir::Gpu&, const ir::ThreadBlock&, const ir::Step& s) {
    if (s.type == OpType::Send) sends.emplace_back(s.srcoff, s.cnt);
  });
  CHECK(sends == std::vector<std::pair<int32_t, int32_t>>{{0, 50}, {50, 50}});
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);
}

TEST_CASE("scratch is sized per rank from the highest index used, at the compiled granularity") {
  const codegen::Compiled c = testing::compileVerified("allpairs-allreduce", {"ranks=4", "instances=3"});
  for (const ir::Gpu& g : c.algorithm.gpus) CHECK(g.scratchChunks == 3 * 3);  // 3 peers' copies, cut in 3
}

TEST_CASE("the header follows the target runtime") {
  const codegen::Compiled ex = testing::compileVerified("ring-reducescatter", {"ranks=4"});
  CHECK(ex.algorithm.collName == "reducescatter");
  CHECK(ex.algorithm.outofplace == false);
  CHECK(ex.algorithm.minBytes == 0);
  CHECK(ex.algorithm.maxBytes == 0);
  const codegen::Compiled legacy =
      testing::compileVerified("ring-reducescatter", {"ranks=4"}, std::nullopt, "msccl-legacy");
  CHECK(legacy.algorithm.collName == "reduce_scatter");
  CHECK(legacy.algorithm.headerStyle() == ir::HeaderStyle::Legacy);
  CHECK(legacy.algorithm.inplace == true);
}

TEST_CASE("thread block labels put a program's operations in the thread blocks it names") {
  // The msccl-tools ring with sendtb = recvtb = channel: two labels, so two thread blocks per rank.
  dsl::Program p("ring", {.type = semantics::CollectiveType::AllReduce,
                          .ranks = 4,
                          .chunkFactor = 4,
                          .form = semantics::CallForm::InPlace});
  for (int32_t i = 0; i < 4; ++i) {
    const dsl::Directives on{.ch = i % 2, .sendtb = i % 2, .recvtb = i % 2};
    auto c = p.chunk(i, Buffer::Input, i);
    for (int32_t s = 1; s < 4; ++s) c = p.chunk((i + s) % 4, Buffer::Input, i).reduce(c, on);
    for (int32_t s = 0; s < 3; ++s) c = c.copy((i + s) % 4, Buffer::Input, i, on);
  }
  const codegen::Compiled c = codegen::compile(p);
  CHECK(c.algorithm.nchannels == 2);
  for (const ir::Gpu& g : c.algorithm.gpus) {
    REQUIRE(g.threadBlocks.size() == 2);
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      CHECK(tb.send == (g.id + 1) % 4);
      CHECK(tb.recv == (g.id + 3) % 4);
      for (const ir::Step& s : tb.steps) {  // chunks i with i % 2 == channel
        const int32_t chunk = s.type == OpType::Recv || s.type == OpType::RecvCopySend ? s.dstoff : s.srcoff;
        CHECK(chunk % 2 == tb.chan);
      }
    }
  }
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);
}

TEST_CASE("a local operation's label names its thread block") {
  dsl::Program p("local", {.type = semantics::CollectiveType::AllGather, .ranks = 2, .chunkFactor = 1});
  for (int32_t r = 0; r < 2; ++r) {
    auto c = p.chunk(r, Buffer::Input, 0);
    c.copy(r, Buffer::Output, r, {.sendtb = 5});
    c.copy(1 - r, Buffer::Output, r);
  }
  const codegen::Compiled c = codegen::compile(p);
  for (const ir::Gpu& g : c.algorithm.gpus) {
    size_t copies = 0;
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps)
        if (s.type == OpType::Copy) {
          ++copies;
          CHECK((tb.send == -1 && tb.recv == -1));  // label 5 is a thread block of its own
        }
    CHECK(copies == 1);
  }
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);
}
