#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "base/output_file.hpp"
#include "ir/reader.hpp"
#include "ir/writer.hpp"
#include "semantics/collective_spec.hpp"

using namespace ccforge::ir;
namespace fs = std::filesystem;

TEST_CASE("read -> write -> read is the identity on every sample, and writing is deterministic") {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CCFORGE_FIXTURES) / "msccl-tools")) {
    if (entry.path().extension() != ".xml") continue;
    INFO(entry.path());
    Algorithm first = readAlgorithmFile(entry.path()).algorithm;
    std::string text = toXml(first);
    auto again = readAlgorithm(text, "written.xml");
    CHECK(again.algorithm.sameAs(first));
    CHECK(again.runtimeParserIssues.empty());
    CHECK(toXml(again.algorithm) == text);
    ++files;
  }
  CHECK(files == 8);
}

TEST_CASE("a file written piece by piece is the whole text, and a failing producer leaves nothing") {
  Algorithm a = readAlgorithmFile(fs::path(CCFORGE_FIXTURES) / "msccl-tools" / "valid" /
                                  "allreduce_ring_a100_n4_ch1_i1_LL128.xml")
                    .algorithm;
  REQUIRE(a.gpus.size() > 1);
  std::vector<std::string> pieces;
  writeXml(a, [&](std::string_view piece) { pieces.emplace_back(piece); });
  CHECK(pieces.size() == a.gpus.size() + 2);  // the header, one per gpu, the closing tag
  const fs::path dir = fs::temp_directory_path() / ("ccforge_writer_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "out.xml";
  ccforge::base::writeOutputFile(file, [&](const ccforge::base::TextSink& sink) { writeXml(a, sink); });
  std::ifstream in(file, std::ios::binary);
  std::stringstream written;
  written << in.rdbuf();
  CHECK(written.str() == toXml(a));
  const fs::path failed = dir / "failed.xml";
  CHECK_THROWS_WITH(ccforge::base::writeOutputFile(failed,
                                                   [](const ccforge::base::TextSink& sink) {
                                                     sink("<algo");
                                                     throw std::runtime_error("stopped half way");
                                                   }),
                    "stopped half way");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}) == 1);  // out.xml only
  CHECK_THROWS_AS(
      ccforge::base::writeOutputFile("/dev/full", [&](const ccforge::base::TextSink& sink) { writeXml(a, sink); }),
      ccforge::base::OutputError);
  fs::remove_all(dir);
}

TEST_CASE("the writer emits what the runtime's hand-written parser needs") {
  Algorithm a;
  a.name = "a<b & \"c\"";
  a.ngpus = 1;
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = 0;
  a.maxBytes = 0;
  a.gpus.push_back(Gpu{0, 1, 1, 0, {ThreadBlock{0, -1, -1, 0, {Step{}}, {}}}, {}, {}, {}});
  a.gpus[0].threadBlocks[0].steps[0].type = OpType::Copy;
  a.gpus[0].threadBlocks[0].steps[0].cnt = 1;
  std::string text = toXml(a);
  CHECK(text.rfind("<algo ", 0) == 0);  // no XML declaration
  CHECK(text.find('\'') == std::string::npos);
  CHECK(text.find('\t') == std::string::npos);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK(std::count(line.begin(), line.end(), '<') == 1);  // one tag per line
  }
  CHECK(text.find(R"(outofplace="1" minBytes="0" maxBytes="0">)") != std::string::npos);
  auto back = readAlgorithm(text, "w.xml").algorithm;
  CHECK(back.name == a.name);
  CHECK(back.sameAs(a));
}

TEST_CASE("a custom collective's spec travels in a comment inside <algo>, even with -- in its name") {
  ccforge::semantics::CustomCollectiveSpec spec;
  spec.name = "to--next";
  spec.ranks = 2;
  spec.inputChunks = 1;
  spec.outputChunks = 1;
  spec.post = {{0, 0, {{1, 0}}}, {1, 0, {{0, 0}}}};
  Algorithm a;
  a.name = "x";
  a.ngpus = 2;
  a.collName = "custom";
  a.coll = CollectiveKind::Custom;
  a.collectiveSpec = ccforge::semantics::collectiveSpecJson(spec);
  CHECK(a.collectiveSpec->find("--") == std::string::npos);
  const std::string text = toXml(a);
  CHECK(text.find("<!-- ccforge-collective-spec {") != std::string::npos);
  const ReadResult back = readAlgorithm(text, "custom.xml");
  CHECK(back.runtimeParserIssues.empty());
  REQUIRE(back.algorithm.collectiveSpec);
  CHECK(*back.algorithm.collectiveSpec == *a.collectiveSpec);
  const ccforge::semantics::CustomCollectiveSpec read =
      ccforge::semantics::parseCollectiveSpec(*back.algorithm.collectiveSpec, "x");
  CHECK(read.name == "to--next");
  CHECK(read.ranks == 2);
  CHECK_FALSE(read.pre);
  REQUIRE(read.post.size() == 2);
  CHECK(read.post[1].value == std::vector<ccforge::semantics::Atom>{{0, 0}});
  // Any other comment is only a comment.
  const ReadResult plain = readAlgorithm(
      "<algo name=\"x\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"1\" ngpus=\"1\" "
      "coll=\"custom\" inplace=\"0\">\n  <!-- a note -->\n</algo>\n",
      "plain.xml");
  CHECK_FALSE(plain.algorithm.collectiveSpec);
}
