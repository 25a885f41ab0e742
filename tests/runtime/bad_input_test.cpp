// Bad calls get a clear error before anything is written to the caller's output buffers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "runtime/names.hpp"
#include "runtime/samples/sample_programs.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using namespace ccforge::runtime::test;

namespace {

constexpr float kPoison = -12345.0f;

struct Buffers {
  Buffers(int32_t ranks, int64_t sendElems, int64_t recvElems)
      : send(ranks, std::vector<float>(sendElems, 1.0f)), recv(ranks, std::vector<float>(recvElems, kPoison)) {
    for (int32_t r = 0; r < ranks; ++r) views.push_back({send[r].data(), sendElems, recv[r].data(), recvElems});
  }
  bool untouched() const {
    return std::all_of(recv.begin(), recv.end(), [](const auto& v) {
      return std::all_of(v.begin(), v.end(), [](float x) { return x == kPoison; });
    });
  }
  std::vector<std::vector<float>> send, recv;
  std::vector<RankBuffers> views;
};

struct Fixture {
  Fixture() : program(compileSample(samples::ringAllReduce(4, {}))) {
    ProgramSet set;
    set.add(program);
    runtime = std::make_unique<Runtime>(std::move(set), makeCpuTarget({}));
  }
  const ExecutableProgram& loaded() const { return runtime->programs().programs().front(); }
  ExecutableProgram program;
  std::unique_ptr<Runtime> runtime;
};

}  // namespace

TEST_CASE("bad input: buffer sizes that do not match the call") {
  Fixture f;
  Buffers b(4, 1024, 1000);
  const CallShape call = callFor(f.program, 1024, DataType::F32, ReduceOp::Sum);
  CHECK_THROWS_WITH(f.runtime->run(call, b.views), "rank 0: receive buffer has 1000 elements, the call needs 1024");
  CHECK(b.untouched());
  Buffers three(3, 1024, 1024);
  CHECK_THROWS_WITH(f.runtime->run(call, three.views), "the call is for 4 ranks but buffers were given for 3");
  CHECK(three.untouched());
}

TEST_CASE("bad input: a count the program's chunks do not divide") {
  Fixture f;
  Buffers b(4, 1022, 1022);
  const CallShape call = callFor(f.program, 1022, DataType::F32, ReduceOp::Sum);
  CHECK_THROWS_WITH(f.runtime->runProgram(f.loaded(), call, b.views),
                    "ring_allreduce_n4 cannot serve this call: count 1022 is not a multiple of nchunksperloop 4");
  CHECK(b.untouched());
  // Through selection, the call is served by the fallback, which says why.
  const RunResult r = f.runtime->run(call, b.views);
  CHECK(r.path == Path::Reference);
  CHECK_THAT(r.why, Catch::Contains("not a multiple of nchunksperloop 4"));
  CHECK(b.recv[2][1021] == 4.0f);
}

TEST_CASE("bad input: an op the interpreter does not run, and unknown type or op names") {
  Fixture f;
  Buffers b(4, 1024, 1024);
  const CallShape avg = callFor(f.program, 1024, DataType::F32, ReduceOp::Avg);
  CHECK_THROWS_WITH(f.runtime->runProgram(f.loaded(), avg, b.views),
                    Catch::Contains("op avg is not supported by the interpreter"));
  CHECK(b.untouched());
  CHECK_FALSE(parseDataType("f8").has_value());
  CHECK_FALSE(parseReduceOp("xor").has_value());
  CHECK(dataTypeList() == "f32, f16, bf16, f64, i32, i64, u8");
}

TEST_CASE("bad input: a program for a different number of ranks") {
  Fixture f;
  Buffers b(2, 1024, 1024);
  CallShape call = callFor(f.program, 1024, DataType::F32, ReduceOp::Sum);
  call.ranks = 2;
  CHECK_THROWS_WITH(f.runtime->runProgram(f.loaded(), call, b.views),
                    Catch::Contains("it is for 4 ranks, the call has 2"));
  CHECK(b.untouched());
}

TEST_CASE("bad input: in-place buffers that do not alias as NCCL requires") {
  samples::SampleOptions o;
  o.form = semantics::CallForm::InPlace;
  const ExecutableProgram p = compileSample(samples::ringAllGather(2, o));
  ProgramSet set;
  set.add(p);
  Runtime runtime(std::move(set), makeCpuTarget({}));
  CallShape call = callFor(p, 8, DataType::F32, ReduceOp::Sum);
  call.form = semantics::CallForm::InPlace;
  std::vector<std::vector<float>> buf(2, std::vector<float>(16, kPoison));
  std::vector<RankBuffers> views{{buf[0].data(), 8, buf[0].data(), 16}, {buf[1].data(), 8, buf[1].data(), 16}};
  CHECK_THROWS_WITH(runtime.run(call, views),
                    "rank 1: in place, the send buffer must be the receive buffer plus 8 elements");
  CHECK(buf[0][0] == kPoison);
  views[1].send = buf[1].data() + 8;
  CHECK(runtime.run(call, views).path == Path::Interpreter);
}

TEST_CASE("bad input: parameters the collective cannot have") {
  CallShape gather;
  gather.collective = semantics::CollectiveType::Gather;
  gather.ranks = 4;
  gather.count = 10;
  CHECK_THROWS_WITH(bufferSizes(gather, 0), "gather needs count (10) to be a multiple of the number of ranks (4)");
  CallShape custom;
  custom.collective = semantics::CollectiveType::Custom;
  CHECK_THROWS_WITH(bufferSizes(custom, 0), Catch::Contains("cannot run a custom collective"));
  CallShape rooted;
  rooted.collective = semantics::CollectiveType::Broadcast;
  rooted.ranks = 2;
  rooted.root = 2;
  CHECK_THROWS_WITH(bufferSizes(rooted, 0), Catch::Contains("root 2 is out of range"));
}
