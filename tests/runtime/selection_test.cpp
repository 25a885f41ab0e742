#include <catch2/catch.hpp>

#include "runtime/loader.hpp"
#include "runtime/program_set.hpp"
#include "runtime/samples/sample_programs.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

ExecutableProgram ring(const std::string& source, int32_t ranks, std::optional<int64_t> minBytes,
                       std::optional<int64_t> maxBytes, int32_t chunksPerStep = 1,
                       semantics::CallForm form = semantics::CallForm::OutOfPlace) {
  samples::SampleOptions o;
  o.chunksPerStep = chunksPerStep;
  o.form = form;
  ir::Algorithm a = samples::ringAllReduce(ranks, o);
  a.minBytes = minBytes;
  a.maxBytes = maxBytes;
  return loadExecutable(a, source, {});
}

CallShape allreduce(int32_t ranks, int64_t count, ReduceOp op = ReduceOp::Sum) {
  CallShape c;
  c.collective = semantics::CollectiveType::AllReduce;
  c.ranks = ranks;
  c.count = count;
  c.op = op;
  return c;
}

}  // namespace

TEST_CASE("selection takes the first program by source name whose window holds the call's bytes") {
  ProgramSet set;
  set.add(ring("b_large.xml", 4, 4097, 0));  // maxBytes 0: unbounded
  set.add(ring("a_small.xml", 4, 0, 4096));
  set.add(ring("c_any.xml", 4, std::nullopt, std::nullopt));  // no window attributes: every size
  CHECK(set.programs()[0].source() == "a_small.xml");
  CHECK(set.select(allreduce(4, 1024)).program->source() == "a_small.xml");  // 4096 bytes: inclusive
  CHECK(set.select(allreduce(4, 1028)).program->source() == "b_large.xml");
  const Selection s = set.select(allreduce(4, 1028));
  REQUIRE(s.reasons.size() == 1);
  CHECK_THAT(s.reasons[0], Catch::Contains("a_small.xml: 4112 bytes is outside its size window [0, 4096]"));
}

TEST_CASE("selection skips programs for another rank count, form, op or a count their chunks do not divide") {
  ProgramSet set;
  set.add(ring("a_8ranks.xml", 8, 0, 0));
  set.add(ring("b_inplace.xml", 4, 0, 0, 1, semantics::CallForm::InPlace));
  set.add(ring("c_k2.xml", 4, 0, 0, 2));  // nchunksperloop 8
  set.add(ring("d_k1.xml", 4, 0, 0, 1));  // nchunksperloop 4
  const Selection s = set.select(allreduce(4, 12));
  REQUIRE(s.program);
  CHECK(s.program->source() == "d_k1.xml");
  REQUIRE(s.reasons.size() == 3);
  CHECK_THAT(s.reasons[0], Catch::Contains("it is for 8 ranks, the call has 4"));
  CHECK_THAT(s.reasons[1], Catch::Contains("it does not serve out-of-place calls"));
  CHECK_THAT(s.reasons[2], Catch::Contains("count 12 is not a multiple of nchunksperloop 8"));
  const Selection avg = set.select(allreduce(4, 16, ReduceOp::Avg));
  CHECK_FALSE(avg.program);
  CHECK_THAT(avg.summary(), Catch::Contains("op avg is not supported by the interpreter"));
  CHECK_FALSE(set.select(allreduce(4, 13)).program);
}

TEST_CASE("the runtime falls back to the reference when no program serves the call, and says why") {
  ProgramSet set;
  set.add(ring("only.xml", 4, 0, 4096));
  Runtime runtime(std::move(set), makeCpuTarget({}));
  MeasureOptions m;
  m.iterations = 0;
  const Measurement inside = measure(runtime, allreduce(4, 1024), m);
  CHECK(inside.result.path == Path::Interpreter);
  CHECK(inside.check.passed());
  const Measurement outside = measure(runtime, allreduce(4, 2048), m);
  CHECK(outside.result.path == Path::Reference);
  CHECK_THAT(outside.result.why, Catch::Contains("only.xml: 8192 bytes is outside its size window"));
  CHECK(outside.check.passed());
  CallShape avg = allreduce(4, 1024, ReduceOp::Avg);
  avg.dtype = DataType::I32;
  const Measurement average = measure(runtime, avg, m);
  CHECK(average.result.path == Path::Reference);
  CHECK(average.check.passed());
  CHECK(average.check.exact);
}
