// Every misuse of the DSL throws a DslError that names the call and points at the caller's line.
#include <catch2/catch.hpp>

#include "dsl/dsl_error.hpp"
#include "dsl/program.hpp"

using namespace ccforge;
using ir::Buffer;

namespace {

dsl::Program program(int32_t ranks = 4) {
  return dsl::Program("m", {.type = semantics::CollectiveType::AllReduce,
                            .ranks = ranks,
                            .chunkFactor = ranks,
                            .form = semantics::CallForm::InPlace});
}

// Runs `f`, which must throw a DslError raised by the call on line `line` of this file.
template <typename F>
std::string errorAt(int line, F f) {
  try {
    f();
  } catch (const dsl::DslError& e) {
    CHECK(e.where().line() == static_cast<uint32_t>(line));
    CHECK(e.where().column() > 0);
    // The compilers' diagnostic format: FILE:LINE:COLUMN: error: CALL: MESSAGE.
    CHECK_THAT(std::string(e.what()),
               Catch::Matches(".*misuse_test\\.cpp:" + std::to_string(line) + ":[0-9]+: error: .+"));
    return e.what();
  }
  FAIL("no DslError");
  return "";
}

}  // namespace

TEST_CASE("using a stale reference names both calls") {
  auto p = program();
  auto c = p.chunk(1, Buffer::Input, 0);
  c.reduce(p.chunk(0, Buffer::Input, 0));  // writes rank 1 input[0]; `c` is now stale
  const int overwrite = __LINE__ - 1;
  const std::string msg = errorAt(__LINE__, [&] { c.copy(2, Buffer::Input, 0); });
  CHECK_THAT(msg, Catch::Contains("copy(rank 1 input[0] -> rank 2 input[0])"));
  CHECK_THAT(msg, Catch::Contains("is stale: rank 1 input[0] was overwritten by reduce at"));
  CHECK_THAT(msg, Catch::Contains("misuse_test.cpp:" + std::to_string(overwrite)));
}

TEST_CASE("reading an uninitialised chunk") {
  dsl::Program p("u", {.type = semantics::CollectiveType::AllToAll, .ranks = 2, .chunkFactor = 1});
  const std::string msg = errorAt(__LINE__, [&] { p.chunk(1, Buffer::Output, 0); });
  CHECK_THAT(msg, Catch::Contains("chunk(rank 1 output[0])") && Catch::Contains("uninitialised"));
  const std::string m1 = errorAt(__LINE__, [&] { p.chunk(0, Buffer::Scratch, 3); });
  CHECK_THAT(m1, Catch::Contains("uninitialised"));
}

TEST_CASE("ranks and indices out of range") {
  auto p = program();
  const std::string m2 = errorAt(__LINE__, [&] { p.chunk(4, Buffer::Input, 0); });
  CHECK_THAT(m2, Catch::Contains("rank 4 is out of range (the program has 4 ranks)"));
  const std::string m3 = errorAt(__LINE__, [&] { p.chunk(0, Buffer::Input, 3, 2); });
  CHECK_THAT(m3, Catch::Contains("outside the input buffer, which has 4 chunks"));
  auto c = p.chunk(0, Buffer::Input, 0);
  const std::string m4 = errorAt(__LINE__, [&] { c.copy(-1, Buffer::Input, 0); });
  CHECK_THAT(m4, Catch::Contains("rank -1 is out of range"));
  const std::string m5 = errorAt(__LINE__, [&] { c.copy(1, Buffer::Output, 4); });
  CHECK_THAT(m5, Catch::Contains("outside the output buffer"));
  const std::string m6 = errorAt(__LINE__, [&] { c.copy(1, Buffer::Scratch, -2); });
  CHECK_THAT(m6, Catch::Contains("index -2 is negative"));
  const std::string m7 = errorAt(__LINE__, [&] { p.chunk(0, Buffer::Input, 0, 0); });
  CHECK_THAT(m7, Catch::Contains("count must be at least 1"));
}

TEST_CASE("count mismatch in reduce") {
  auto p = program();
  const std::string m8 =
      errorAt(__LINE__, [&] { p.chunk(1, Buffer::Input, 0, 2).reduce(p.chunk(0, Buffer::Input, 0)); });
  CHECK_THAT(m8, Catch::Contains("reduce(rank 1 input[0..1] += rank 0 input[0])") &&
                     Catch::Contains("count mismatch: reduces 1 chunks into 2"));
}

TEST_CASE("reducing a chunk twice") {
  auto p = program();
  auto once = p.chunk(1, Buffer::Input, 0).reduce(p.chunk(0, Buffer::Input, 0));
  const std::string m9 =
      errorAt(__LINE__, [&] { p.chunk(2, Buffer::Input, 0).reduce(once).reduce(p.chunk(0, Buffer::Input, 0)); });
  CHECK_THAT(m9, Catch::Contains("reducing a chunk twice: in(0,0) is already part of both"));
}

TEST_CASE("channel over the limit and bad thread block labels") {
  auto p = program();
  auto c = p.chunk(0, Buffer::Input, 0);
  const std::string m10 = errorAt(__LINE__, [&] { c.copy(1, Buffer::Input, 0, {.ch = 32}); });
  CHECK_THAT(m10, Catch::Contains("channel 32 is over the limit"));
  const std::string m11 = errorAt(__LINE__, [&] { c.copy(1, Buffer::Input, 0, {.sendtb = -4}); });
  CHECK_THAT(m11, Catch::Contains("thread block label"));
}

TEST_CASE("copies and reductions whose operands share memory") {
  auto p = program();
  const std::string m12 = errorAt(__LINE__, [&] { p.chunk(0, Buffer::Input, 0, 2).copy(0, Buffer::Output, 1); });
  CHECK_THAT(m12,  // in place: output aliases input
             Catch::Contains("share memory on rank 0"));
  const std::string m13 = errorAt(__LINE__, [&] { p.chunk(0, Buffer::Input, 0).reduce(p.chunk(0, Buffer::Input, 0)); });
  CHECK_THAT(m13, Catch::Contains("share memory"));
}

TEST_CASE("empty references, references of another program, bad split and group, bad parallelize") {
  auto p = program();
  auto q = program();
  dsl::ChunkRef empty;
  const std::string m14 = errorAt(__LINE__, [&] { empty.copy(0, Buffer::Input, 0); });
  CHECK_THAT(m14, Catch::Contains("empty"));
  const std::string m15 = errorAt(__LINE__, [&] { p.chunk(1, Buffer::Input, 0).reduce(q.chunk(0, Buffer::Input, 0)); });
  CHECK_THAT(m15, Catch::Contains("another program"));
  const std::string m16 = errorAt(__LINE__, [&] { p.chunk(0, Buffer::Input, 0, 3).split(2); });
  CHECK_THAT(m16, Catch::Contains("cannot split 3 chunks into 2"));
  const std::string m17 = errorAt(__LINE__, [&] { p.chunk(0, Buffer::Input, 0).group(p.chunk(0, Buffer::Input, 2)); });
  CHECK_THAT(m17, Catch::Contains("adjacent"));
  const std::string m18 = errorAt(__LINE__, [&] { p.parallelize(0, [] {}); });
  CHECK_THAT(m18, Catch::Contains("between 1 and 32"));
  const std::string m19 = errorAt(__LINE__, [&] { p.parallelize(8, [&] { p.parallelize(8, [] {}); }); });
  CHECK_THAT(m19, Catch::Contains("got 64"));
}

TEST_CASE("an error inside parallelize leaves the factor as it was") {
  auto p = program();
  CHECK_THROWS_AS(p.parallelize(2, [&] { p.chunk(9, Buffer::Input, 0); }), dsl::DslError);
  p.chunk(0, Buffer::Input, 0).copy(1, Buffer::Scratch, 0);
  CHECK(p.trace().back().parallel == 1);
}

TEST_CASE("programs with nonsensical options are refused") {
  CHECK_THROWS_WITH(dsl::Program("x", {.type = semantics::CollectiveType::AllReduce, .ranks = 2}, {.instances = 0}),
                    Catch::Contains("instances must be between 1 and 32"));
}

TEST_CASE("compute: only in fused programs, each product chunk once, and read only after it") {
  auto plain = program();
  const std::string notFused = errorAt(__LINE__, [&] { plain.compute(0, 0); });
  CHECK_THAT(notFused, Catch::Contains("compute(rank 0 input[0])") && Catch::Contains("only a fused program computes"));

  dsl::CollectiveBinding b{.type = semantics::CollectiveType::AllReduce, .ranks = 2, .chunkFactor = 2};
  b.product = dsl::FusedProduct{ir::ComputeOp::Gemv, 8, 1, 4, 0};
  dsl::Program fused("f", b);
  const std::string early = errorAt(__LINE__, [&] { fused.chunk(1, Buffer::Input, 0); });
  CHECK_THAT(early, Catch::Contains("uninitialised") && Catch::Contains("compute it first"));
  fused.compute(1, 0, 2);
  const int first = __LINE__ - 1;
  const std::string twice = errorAt(__LINE__, [&] { fused.compute(1, 1); });
  CHECK_THAT(twice, Catch::Contains("rank 1 input[1] is already defined, by compute at") &&
                        Catch::Contains("misuse_test.cpp:" + std::to_string(first)));
  const std::string outside = errorAt(__LINE__, [&] { fused.compute(0, 1, 2); });
  CHECK_THAT(outside, Catch::Contains("outside the input buffer"));
  CHECK(fused.chunk(1, Buffer::Input, 0, 2).count() == 2);  // computed: an ordinary reference
}

TEST_CASE("a fused binding names a product that fits its collective") {
  dsl::CollectiveBinding b{.type = semantics::CollectiveType::AllGather, .ranks = 2, .chunkFactor = 1};
  b.product = dsl::FusedProduct{ir::ComputeOp::Gemv, 8, 1, 4, 0};
  CHECK_THROWS_WITH(b.validate(), Catch::Contains("goes with allreduce, not allgather"));
  b.type = semantics::CollectiveType::AllReduce;
  b.chunkFactor = 3;
  CHECK_THROWS_WITH(b.validate(), Catch::Contains("must be a multiple of the 3 input chunks"));
  b.chunkFactor = 2;
  b.form = semantics::CallForm::InPlace;
  CHECK_THROWS_WITH(b.validate(), Catch::Contains("out of place"));
  b.form = semantics::CallForm::OutOfPlace;
  b.product->cols = 2;
  CHECK_THROWS_WITH(b.validate(), Catch::Contains("one column"));
  b.product->cols = 1;
  CHECK_NOTHROW(b.validate());
}
