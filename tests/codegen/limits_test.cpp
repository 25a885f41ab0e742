// The compiler respects every runtime limit: it spreads work where it may choose, and fails
// with a message naming the cause where the program's directives leave no choice.
#include <catch2/catch.hpp>

#include <map>

#include "codegen/channels.hpp"
#include "codegen/depths.hpp"
#include "codegen/fusion.hpp"
#include "codegen/lower.hpp"
#include "codegen/threadblocks.hpp"
#include "codegen/compile_error.hpp"
#include "compile_support.hpp"

using namespace ccforge;
using ir::Buffer;

namespace {

// A ring allreduce over n ranks; `pin` puts every transfer on channel 0.
dsl::Program ring(int32_t n, bool pin) {
  dsl::Program p("ring", {.type = semantics::CollectiveType::AllReduce,
                          .ranks = n,
                          .chunkFactor = n,
                          .form = semantics::CallForm::InPlace});
  const dsl::Directives on{.ch = pin ? 0 : -1};
  for (int32_t i = 0; i < n; ++i) {
    auto c = p.chunk(i, Buffer::Input, i);
    for (int32_t s = 1; s < n; ++s) c = p.chunk((i + s) % n, Buffer::Input, i).reduce(c, on);
    for (int32_t s = 0; s < n - 1; ++s) c = c.copy((i + s) % n, Buffer::Input, i, on);
  }
  return p;
}

size_t maxSteps(const ir::Algorithm& a) {
  size_t m = 0;
  for (const ir::Gpu& g : a.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks) m = std::max(m, tb.steps.size());
  return m;
}

}  // namespace

TEST_CASE("a 64-rank ring pinned to one channel needs 127 steps per thread block") {
  // Each rank handles 64 chunks twice, once fused away: 2*64 - 1 steps in its one thread block.
  CHECK_THROWS_WITH(codegen::compile(ring(64, true)),
                    Catch::Contains("needs 127 steps; msccl-executor allows 64 per thread block") &&
                        Catch::Contains("limits_test.cpp"));
  const dsl::Program p = ring(64, true);
  const codegen::Compiled legacy = codegen::compile(p, {testing::target("msccl-legacy")});
  CHECK(maxSteps(legacy.algorithm) == 127);
  CHECK(testing::verifyCompiled(legacy.algorithm, p, "msccl-legacy").verdict == verify::Verdict::Verified);
}

TEST_CASE("without directives the same ring is spread over channels to fit 64 steps") {
  const dsl::Program p = ring(64, false);
  const codegen::Compiled c = codegen::compile(p);
  CHECK(maxSteps(c.algorithm) <= 64);
  CHECK(c.algorithm.nchannels >= 2);
  CHECK(testing::verifyCompiled(c.algorithm, p, "msccl-executor").verdict == verify::Verdict::Verified);
}

TEST_CASE("more send peers than a channel can hold go to further channels") {
  // 40 ranks all-pairs: 39 sending thread blocks per rank, 32 at most per channel.
  const codegen::Compiled c = testing::compileVerified("allpairs-alltoall", {"ranks=40"});
  CHECK(c.algorithm.nchannels >= 2);
  for (const ir::Gpu& g : c.algorithm.gpus) {
    std::map<int32_t, int32_t> senders, receivers;
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      if (tb.send >= 0) ++senders[tb.chan];
      if (tb.recv >= 0) ++receivers[tb.chan];
    }
    for (auto [chan, n] : senders) CHECK(n <= 32);
    for (auto [chan, n] : receivers) CHECK(n <= 32);
  }
}

TEST_CASE("more thread blocks than can be resident at once is an error, not a hang") {
  // Rank 0 sends to 127 peers, each connection its own thread block: refused at the 109th, while
  // channels are assigned, located at the DSL call.
  CHECK_THROWS_WITH(codegen::compile(algorithms::instantiate("allpairs-alltoall", {"ranks=128"}).program),
                    Catch::Contains("allpairs_alltoall.cpp:") &&
                        Catch::Contains("rank 0 already has 108 thread blocks that send, one per peer and channel; "
                                        "msccl-executor allows 108 per rank"));
}

TEST_CASE("a custom collective cannot be compiled for the executor, which has no coll=custom") {
  CHECK_THROWS_WITH(codegen::compile(algorithms::instantiate("alltonext", {}).program),
                    Catch::Contains("compile it for msccl-legacy"));
}

TEST_CASE("a program that does not implement its collective is refused before lowering") {
  dsl::Program p("half", {.type = semantics::CollectiveType::AllGather, .ranks = 2, .chunkFactor = 1});
  p.chunk(0, Buffer::Input, 0).copy(1, Buffer::Output, 0);
  CHECK_THROWS_AS(codegen::compile(p), codegen::CompileError);
  CHECK_THROWS_WITH(codegen::compile(p), Catch::Contains("does not implement allgather: 3 output chunks are wrong") &&
                                             Catch::Contains("rank 0 output[0] holds uninitialised, expected in(0,0)"));
}

TEST_CASE("contradicting thread block labels are reported at the call") {
  dsl::Program p("labels", {.type = semantics::CollectiveType::AllToAll, .ranks = 3, .chunkFactor = 1});
  for (int32_t r = 0; r < 3; ++r)
    for (int32_t i = 0; i < 3; ++i)  // every send of rank r in thread block 0: three send peers
      p.chunk(r, Buffer::Input, i).copy(i, Buffer::Output, r, {.sendtb = 0});
  CHECK_THROWS_WITH(codegen::compile(p), Catch::Contains("copy at") && Catch::Contains("limits_test.cpp") &&
                                             Catch::Contains("two send peers"));
}

TEST_CASE("channel directives of replicas wrap below the channel limit") {
  const codegen::Compiled c = testing::compileVerified("ring-allreduce", {"ranks=8", "channels=8", "instances=5"});
  CHECK(c.algorithm.nchannels == 32);
  for (const ir::Gpu& g : c.algorithm.gpus) CHECK(g.threadBlocks.size() == 32);
}

namespace {

// A ring reduce-scatter in which every rank first sends two chunks in one transfer, the chains
// pinned to one channel or left to the compiler.
dsl::Program pinnedRing(bool pin) {
  dsl::Program p("rs", {.type = semantics::CollectiveType::ReduceScatter,
                        .ranks = 4,
                        .chunkFactor = 2,
                        .form = semantics::CallForm::InPlace});
  for (int32_t i = 0; i < 4; ++i) {
    auto c = p.chunk((i + 1) % 4, Buffer::Input, 2 * i, 2);
    for (int32_t s = 2; s <= 4; ++s) c = p.chunk((i + s) % 4, Buffer::Input, 2 * i, 2).reduce(c, {.ch = pin ? 0 : -1});
  }
  return p;
}

}  // namespace

TEST_CASE("a ring whose ranks all start chains on one connection overfills it unless the starts are held back") {
  // With Simple's two transfers in flight, every rank sends its chain's first transfer and no
  // rank can forward: the free schedule overfills every connection, the held-back one none.
  const dsl::Program program = pinnedRing(true);
  const semantics::RuntimeProfile& target = semantics::executorProfile();
  codegen::Lowered lowered = codegen::lower(program, target);
  codegen::fuse(lowered);
  codegen::computeDepths(lowered.dag);
  const std::vector<bool> isolated(lowered.dag.instrs.size(), false);
  codegen::ChannelAssignment channels =
      codegen::assignChannels(lowered.dag, program, target, target.maxStepsPerThreadBlock, isolated,
                              codegen::Isolation::PerChain, codegen::ChainOrder::Program);
  const codegen::Schedule free = codegen::assignThreadBlocks(
      lowered.dag, channels, program, target.maxStepsPerThreadBlock, 2, codegen::Injection::Free);
  CHECK_FALSE(free.overfull.empty());
  const codegen::Schedule held = codegen::assignThreadBlocks(
      lowered.dag, channels, program, target.maxStepsPerThreadBlock, 2, codegen::Injection::LeaveSlotForForwards);
  CHECK(held.overfull.empty());
}

TEST_CASE("pinned chains that overfill a connection get the held-back schedule, which verifies") {
  const dsl::Program pinned = pinnedRing(true);
  const codegen::Compiled c = codegen::compile(pinned);
  CHECK(c.notes.empty());
  CHECK(c.algorithm.nchannels == 1);
  CHECK(testing::verifyCompiled(c.algorithm, pinned, "msccl-executor").verdict == verify::Verdict::Verified);
  // Left to the compiler, the chains get channels of their own first.
  const dsl::Program free = pinnedRing(false);
  const codegen::Compiled d = codegen::compile(free);
  CHECK(d.notes.empty());
  CHECK(d.algorithm.nchannels > 1);
  CHECK(testing::verifyCompiled(d.algorithm, free, "msccl-executor").verdict == verify::Verdict::Verified);
}

TEST_CASE("an out-of-place program that stores into its input is refused, naming the DSL call") {
  // Rank i reduces the other rank's chunk i into its own input, then copies it out: out of place
  // the input is the caller's const sendbuff.
  dsl::Program p("sendbuf", {.type = semantics::CollectiveType::ReduceScatter,
                             .ranks = 2,
                             .chunkFactor = 1,
                             .form = semantics::CallForm::OutOfPlace});
  for (int32_t i = 0; i < 2; ++i)
    p.chunk(i, Buffer::Input, i).reduce(p.chunk(1 - i, Buffer::Input, i)).copy(i, Buffer::Output, 0);
  CHECK_THROWS_WITH(codegen::compile(p), Catch::Contains("rank 0: reduce at") && Catch::Contains("limits_test.cpp") &&
                                             Catch::Contains("stores into the input buffer") &&
                                             Catch::Contains("const send buffer"));
}

TEST_CASE("a rank's share of the file must fit the XML nodes the runtime's parser stores per load") {
  // Nodes a rank's load stores: 1 algo + every gpu + its tbs + their steps (msccl_parser.cc).
  const dsl::Program p = ring(8, false);
  const codegen::Compiled c = codegen::compile(p);
  int64_t most = 0;
  for (const ir::Gpu& g : c.algorithm.gpus) {
    int64_t nodes = 1 + 8 + static_cast<int64_t>(g.threadBlocks.size());
    for (const ir::ThreadBlock& tb : g.threadBlocks) nodes += static_cast<int64_t>(tb.steps.size());
    most = std::max(most, nodes);
  }
  semantics::RuntimeProfile target = semantics::executorProfile();
  target.maxNodesPerLoad = static_cast<int32_t>(most);  // exactly on the limit: compiles
  CHECK(codegen::compile(p, {target}).algorithm.sameAs(c.algorithm));
  target.maxNodesPerLoad = static_cast<int32_t>(most - 1);  // one past it
  CHECK_THROWS_WITH(codegen::compile(p, {target}),
                    Catch::Contains("needs " + std::to_string(most) + " XML nodes") &&
                        Catch::Contains("stores at most " + std::to_string(most - 1) + " per rank (MAX_NODES)"));
}
