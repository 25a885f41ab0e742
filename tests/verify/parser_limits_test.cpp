// The runtime parser's node and children limits, on programs too large to keep as fixtures: each
// is generated here, written the way the runtime reads it, read back and verified. Expected: a
// rank's load may store 4095 XML nodes (1 <algo> + every <gpu> + that rank's <tb>s and <step>s;
// MAX_NODES = 4096 is checked before every node read, so the 4096th fails the load), and an
// element may have 1024 children (MAX_SUBS). These counts were also run through the executor's
// own parser (msccl_parser.cc at c6f6b36): 4095 loads, 4096 fails, other ranks' elements do
// not count.
#include <catch2/catch.hpp>

#include <algorithm>

#include "ir/reader.hpp"
#include "ir/writer.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;

namespace {

// `stepsPerRank[r]` local copies on rank r, 64 per thread block, each of its own chunk: an
// out-of-place allreduce that is correct when there is one rank.
ir::Algorithm copies(const std::vector<int32_t>& stepsPerRank) {
  const int32_t chunks = std::max(1, *std::max_element(stepsPerRank.begin(), stepsPerRank.end()));
  ir::Algorithm a;
  a.name = "copies";
  a.nchunksperloop = chunks;
  a.ngpus = static_cast<int32_t>(stepsPerRank.size());
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = 0;
  a.maxBytes = 0;
  for (int32_t r = 0; r < a.ngpus; ++r) {
    ir::Gpu g{r, chunks, chunks, 0, {}, {}, {}, {}};
    for (int32_t k = 0; k < stepsPerRank[static_cast<size_t>(r)]; ++k) {
      if (k % 64 == 0) g.threadBlocks.push_back({static_cast<int32_t>(g.threadBlocks.size()), -1, -1, 0, {}, {}});
      ir::Step st;
      st.s = static_cast<int32_t>(g.threadBlocks.back().steps.size());
      st.type = ir::OpType::Copy;
      st.srcbuf = ir::Buffer::Input;
      st.dstbuf = ir::Buffer::Output;
      st.srcoff = st.dstoff = k;
      st.cnt = 1;
      g.threadBlocks.back().steps.push_back(st);
    }
    a.gpus.push_back(std::move(g));
  }
  return a;
}

verify::FileReport verifyWritten(const ir::Algorithm& a) {
  verify::Options o;
  ir::ReadResult read = ir::readAlgorithm(ir::toXml(a), "generated.xml", o.profile.lexical);
  return verify::verifyAlgorithm(read.algorithm, "generated.xml", o, read.runtimeParserIssues);
}

std::vector<const verify::Violation*> findingsOf(const verify::FileReport& r, const std::string& rule) {
  std::vector<const verify::Violation*> out;
  for (const verify::Violation& v : r.violations)
    if (v.rule == rule) out.push_back(&v);
  return out;
}

}  // namespace

TEST_CASE("a rank's load may store 4095 XML nodes, not 4096") {
  // 1 <algo> + 1 <gpu> + 63 <tb> + 4030 <step> = 4095.
  verify::FileReport onLimit = verifyWritten(copies({4030}));
  CHECK(onLimit.verdict == verify::Verdict::Verified);
  CHECK(findingsOf(onLimit, "limits.parser-nodes").empty());

  verify::FileReport past = verifyWritten(copies({4031}));
  CHECK(past.verdict == verify::Verdict::Violation);
  auto found = findingsOf(past, "limits.parser-nodes");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0]->message, Catch::Contains("stores 4096 XML nodes (1 <algo>, 1 <gpu>, 63 <tb>, 4031 <step>)"));
  CHECK(found[0]->where.line == 2);
}

TEST_CASE("another rank's thread blocks and steps are not stored, its <gpu> element is") {
  // Rank 0: 1 + 2 + 63 + 4029 = 4095; rank 1 one step more: 4096. The file holds 8,188 nodes.
  verify::FileReport r = verifyWritten(copies({4029, 4030}));
  auto found = findingsOf(r, "limits.parser-nodes");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0]->message, Catch::StartsWith("gpu 1:"));
  CHECK_THAT(found[0]->message, Catch::Contains("1 <algo>, 2 <gpu>, 63 <tb>, 4030 <step>"));
}

TEST_CASE("an element may have 1024 children, the parser overruns its array at 1025") {
  // The rest of such a program is wrong (no rank computes anything); only format.children is at stake.
  verify::FileReport onLimit = verifyWritten(copies(std::vector<int32_t>(1024, 0)));
  CHECK(findingsOf(onLimit, "format.children").empty());
  verify::FileReport past = verifyWritten(copies(std::vector<int32_t>(1025, 0)));
  auto found = findingsOf(past, "format.children");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0]->message, Catch::Contains("<algo> has 1025 <gpu> elements"));
}
