// The CPU backend runs every MSCCL-IR file of the shared corpus (tests/fixtures) with random
// data: the valid ones (and the semantically correct ones the corpus calls invalid only for a
// runtime limit) match the reference for every op and several types and sizes; the others fail
// as stated below.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

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
    {"rrc_srcoff_probe_allreduce_n2.xml", "rank 1 tb 1 step 1 (rrcs): source chunks [1, 2) are outside the scratch buffer of 1 chunks"},
};

std::vector<fs::path> filesIn(const std::string& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".xml" || e.path().string().ends_with(".xml.gz"))) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

void sweepFile(const fs::path& path) {
  const Program p = loadFile(path.string());
  const CallForm form = p.serves(CallForm::OutOfPlace) ? CallForm::OutOfPlace : CallForm::InPlace;
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
  const Program p = loadFile(corpusDir() + "/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml");
  const int64_t chunk = tileBytes(ir::Protocol::LL128) * 5 / 2 / 4;
  CallShape call = callFor(p, countForChunk(p, chunk), DataType::F32, ReduceOp::Sum);
  const Measurement m = runOnCpu(p, call);
  INFO(m.check.describe());
  CHECK(m.check.passed());
}
