// The CPU backend runs every MSCCL-IR file of the shared corpus (tests/fixtures) with random
// data: the valid ones (and the semantically correct ones the corpus calls invalid only for a
// runtime limit) match the reference for every op and several types and sizes; the others fail
// as stated below.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "runtime/launch_plan.hpp"
#include "runtime/names.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using namespace ccforge::runtime::test;

namespace {

namespace fs = std::filesystem;

// Files under invalid/ and what the runtime does with them.
const std::map<std::string, std::string> kInvalid = {
    // nchannels 40 exceeds the MSCCL executor's MAXCHANNELS; this runtime has no such limit.
    {"allreduce_ring_a100_n8_ch8_i5_nchannels40.xml", "runs correctly"},
    // rank 1's rrcs reads its local operand at scratch chunk 1, but rank 1 has 1 scratch chunk.
    {"rrc_srcoff_probe_allreduce_n2.xml",
     "rank 1 tb 1 step 1 (rrcs): source chunks [1, 2) are outside the scratch buffer of 1 chunks"},
};

std::vector<fs::path> filesIn(const std::string& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".xml" || e.path().string().ends_with(".xml.gz")))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

void sweepFile(const fs::path& path) {
  const ExecutableProgram p = loadFile(path.string());
  const semantics::CallForm form =
      p.serves(semantics::CallForm::OutOfPlace) ? semantics::CallForm::OutOfPlace : semantics::CallForm::InPlace;
  for (const SizeRegime& regime : {kSmallChunks, kTwoTiles, kManyTiles}) sweep(p, regime, form);
}

}  // namespace

TEST_CASE("CPU: every valid corpus file matches the reference in every regime") {
  const std::vector<fs::path> files = filesIn(corpusDir() + "/msccl-tools/valid");
  REQUIRE(files.size() >= 6);
  for (const fs::path& f : files) sweepFile(f);
}

TEST_CASE("CPU: corpus files rejected for a runtime limit still run correctly here") {
  sweepFile(corpusDir() + "/msccl-tools/invalid/allreduce_ring_a100_n8_ch8_i5_nchannels40.xml");
}

TEST_CASE("CPU: a program reading outside its scratch buffer is refused at load") {
  try {
    loadFile(corpusDir() + "/msccl-tools/invalid/rrc_srcoff_probe_allreduce_n2.xml");
    FAIL("the out-of-bounds read was accepted");
  } catch (const ProgramRejected& e) {
    CHECK_FALSE(e.unsupported());
    CHECK_THAT(e.what(), Catch::Contains(kInvalid.at("rrc_srcoff_probe_allreduce_n2.xml")));
  }
}

TEST_CASE("every invalid corpus file has an expectation here") {
  for (const fs::path& f : filesIn(corpusDir() + "/msccl-tools/invalid")) {
    INFO(f.string());
    CHECK(kInvalid.count(f.filename().string()) == 1);
  }
}

TEST_CASE("CPU: the LL128 ring file runs at the protocol's own tile with several tile iterations") {
  const ExecutableProgram p = loadFile(corpusDir() + "/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml");
  const int64_t chunk = semantics::tileBytes(ir::Protocol::LL128) * 5 / 2 / 4;
  CallShape call = callFor(p, countForChunk(p, chunk), DataType::F32, ReduceOp::Sum);
  const Measurement m = runOnCpu(p, call);
  INFO(m.check.describe());
  CHECK(m.check.passed());
}

// Issue 32: scratch starts as the poison byte (runtime/core/poison.hpp), not zero: a program that
// reduces a received chunk with s[0], which nothing wrote, fails the check. With zeroed scratch
// the sum came out right and `run --no-verify` passed it.
TEST_CASE("CPU: a reduction with scratch nothing wrote fails the check") {
  const ExecutableProgram p = loadFile(runtimeFixturesDir() + "/rrc_unwritten_scratch_alltoall_n2.xml");
  for (const DataType dtype : {DataType::F32, DataType::I32, DataType::F16}) {
    INFO(dataTypeName(dtype));
    const Measurement m = runOnCpu(p, callFor(p, 64, dtype, ReduceOp::Sum));
    // Each rank copies its own chunk (right) and reduces the received one with s[0] (wrong).
    CHECK(m.check.checked == 256);
    CHECK(m.check.mismatches == 128);
  }
}

// Issue 32: 2^31 - 1 scratch chunks are refused before anything is allocated, at the <gpu>, as
// unsupported (run: exit 1); they ended in bad_alloc.
TEST_CASE("CPU: scratch over the run memory limit is refused by the launch plan at the <gpu>") {
  const ExecutableProgram p = loadFile(runtimeFixturesDir() + "/scratch_int32_max_alltoall_n2.xml");
  const CallShape call = callFor(p, 16, DataType::F32, ReduceOp::Sum);
  const std::vector<uint64_t> scratch = scratchBytesOf(p, call);
  REQUIRE(scratch.size() == 2);
  CHECK(scratch[0] == uint64_t{2147483647} * 16 * 4);  // 16-element chunks of f32
  try {
    (void)makeLaunchPlan(p, call, {});
    FAIL("the plan accepted 128 GiB of scratch");
  } catch (const ProgramRejected& e) {
    CHECK(e.unsupported());
    CHECK(e.where().line == 2);
    CHECK_THAT(e.message(), Catch::Contains("s_chunks=2147483647") && Catch::Contains("kMaxRunBufferBytes"));
  }
}
