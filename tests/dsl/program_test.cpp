#include <catch2/catch.hpp>

#include "dsl/program.hpp"

using namespace ccforge;
using ir::Buffer;

namespace {

dsl::Program allreduce(int32_t ranks, semantics::CallForm form = semantics::CallForm::InPlace) {
  return dsl::Program(
      "t", {.type = semantics::CollectiveType::AllReduce, .ranks = ranks, .chunkFactor = ranks, .form = form});
}

}  // namespace

TEST_CASE("copy and reduce return the reference at the destination and chain fluently") {
  auto p = allreduce(3);
  auto c = p.chunk(0, Buffer::Input, 1).copy(1, Buffer::Scratch, 4, {.ch = 2, .sendtb = 1, .recvtb = 3});
  CHECK(c.rank() == 1);
  CHECK(c.buffer() == Buffer::Scratch);
  CHECK(c.index() == 4);
  auto r = p.chunk(1, Buffer::Input, 1).reduce(c);
  CHECK(r.rank() == 1);
  CHECK(r.index() == 1);
  REQUIRE(p.trace().size() == 2);
  const dsl::TraceOp& copy = p.trace()[0];
  CHECK(copy.kind == dsl::TraceOpKind::Copy);
  CHECK(copy.src.rank == 0);
  CHECK(copy.dst.rank == 1);
  CHECK(copy.directives.ch == 2);
  CHECK(copy.directives.sendtb == 1);
  CHECK(copy.directives.recvtb == 3);
  CHECK(p.trace()[1].kind == dsl::TraceOpKind::Reduce);
  CHECK(p.trace()[1].where.line() > copy.where.line());
  // in(1,1) + in(0,1): the value of a reduce is the sum of both operands.
  semantics::ChunkValues v;
  CHECK(p.values().describe(p.valueAt(1, Buffer::Input, 1)) == "in(0,1)+in(1,1)");
}

TEST_CASE("scratch is as large as the highest index used, per rank") {
  auto p = allreduce(2);
  p.chunk(0, Buffer::Input, 0).copy(1, Buffer::Scratch, 6);
  CHECK(p.scratchChunks(1) == 7);
  CHECK(p.scratchChunks(0) == 0);
}

TEST_CASE("in place, input and output are one buffer: writing one makes references to the other stale") {
  auto p = allreduce(2);
  auto in = p.chunk(1, Buffer::Input, 0);
  p.chunk(0, Buffer::Input, 0).copy(1, Buffer::Output, 0);
  CHECK_THROWS_WITH(in.copy(0, Buffer::Scratch, 0), Catch::Contains("stale"));
  // Out of place they are separate memories.
  auto q = allreduce(2, semantics::CallForm::OutOfPlace);
  auto in2 = q.chunk(1, Buffer::Input, 0);
  q.chunk(0, Buffer::Input, 0).copy(1, Buffer::Output, 0);
  CHECK_NOTHROW(in2.copy(0, Buffer::Scratch, 0));
}

TEST_CASE("in-place allgather keeps each rank's input inside its output") {
  dsl::Program p("ag", {.type = semantics::CollectiveType::AllGather,
                        .ranks = 4,
                        .chunkFactor = 1,
                        .form = semantics::CallForm::InPlace});
  // Rank 2's input chunk 0 is its output chunk 2.
  CHECK(p.values().describe(p.valueAt(2, Buffer::Output, 2)) == "in(2,0)");
  CHECK(p.valueAt(2, Buffer::Output, 1) == semantics::ChunkValues::kUninitialized);
}

TEST_CASE("the trace-level postcondition check explains what is wrong and which call wrote it") {
  auto p = allreduce(2);
  CHECK(p.checkPostcondition().mismatches == 4);  // nothing done yet: 2 chunks on 2 ranks are partial
  auto sum = p.chunk(1, Buffer::Input, 0).reduce(p.chunk(0, Buffer::Input, 0));
  sum.copy(0, Buffer::Input, 0);
  auto result = p.checkPostcondition();
  CHECK(result.mismatches == 2);  // chunk 1 is still unreduced on both ranks
  REQUIRE(!result.details.empty());
  CHECK_THAT(result.details[0], Catch::Contains("rank 0 output[1] holds in(0,1), expected in(0,1)+in(1,1)"));
  p.chunk(1, Buffer::Input, 1).reduce(p.chunk(0, Buffer::Input, 1)).copy(0, Buffer::Input, 1);
  CHECK(p.checkPostcondition().holds());
}

TEST_CASE("a wrong route is reported with the call that last wrote the chunk") {
  dsl::Program p("a2a", {.type = semantics::CollectiveType::AllToAll, .ranks = 2, .chunkFactor = 1});
  p.chunk(0, Buffer::Input, 0).copy(0, Buffer::Output, 0);
  p.chunk(0, Buffer::Input, 1).copy(1, Buffer::Output, 0);
  p.chunk(1, Buffer::Input, 0).copy(0, Buffer::Output, 1);
  p.chunk(1, Buffer::Input, 0).copy(1, Buffer::Output, 1);  // should be input chunk 1
  auto result = p.checkPostcondition();
  CHECK(result.mismatches == 1);
  REQUIRE(result.details.size() == 1);
  CHECK_THAT(result.details[0], Catch::Contains("rank 1 output[1] holds in(1,0), expected in(1,1)") &&
                                    Catch::Contains("last written by copy at") && Catch::Contains("program_test.cpp"));
}

TEST_CASE("parallelize records its factor on the operations it traces, nested factors multiply") {
  auto p = allreduce(2);
  p.parallelize(2, [&] {
    p.chunk(0, Buffer::Input, 0).copy(1, Buffer::Scratch, 0);
    p.parallelize(3, [&] { p.chunk(0, Buffer::Input, 1).copy(1, Buffer::Scratch, 1); });
  });
  p.chunk(1, Buffer::Input, 0).copy(0, Buffer::Scratch, 0);
  REQUIRE(p.trace().size() == 3);
  CHECK(p.trace()[0].parallel == 2);
  CHECK(p.trace()[1].parallel == 6);
  CHECK(p.trace()[2].parallel == 1);
  CHECK(p.parallelFactors() == 6);
  dsl::Program q("t",
                 {.type = semantics::CollectiveType::AllReduce,
                  .ranks = 2,
                  .chunkFactor = 2,
                  .form = semantics::CallForm::InPlace},
                 {.instances = 4});
  CHECK(q.refinement() == 4);
}

TEST_CASE("split and group make references to parts and to adjacent chunks") {
  dsl::Program p("s", {.type = semantics::CollectiveType::AllToAll, .ranks = 2, .chunkFactor = 2});
  auto whole = p.chunk(0, Buffer::Input, 0, 4);
  auto parts = whole.split(2);
  REQUIRE(parts.size() == 2);
  CHECK(parts[1].index() == 2);
  CHECK(parts[1].count() == 2);
  auto again = parts[1].group(parts[0]);
  CHECK(again.index() == 0);
  CHECK(again.count() == 4);
}
