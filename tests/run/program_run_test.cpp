// `ccforge run`'s pipeline as a library call: its log and tables, and the outcome a command maps
// to an exit code, without the CLI. Runs on the CPU backend.
#include <catch2/catch.hpp>

#include <sstream>
#include <stdexcept>

#include "run/program_run.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;
using run::ProgramRunOutcome;

namespace {

const std::string kRing = "msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml";

run::ProgramRunRequest request(const std::string& relative) {
  run::ProgramRunRequest r;
  r.files = {test::fixture(relative).string()};
  r.count = 4096;
  r.measure.iterations = 1;
  r.measure.warmup = 0;
  return r;
}

}  // namespace

TEST_CASE("program run: one call is verified at load, run, checked and logged") {
  std::ostringstream log;
  const run::ProgramRunResult result = run::runPrograms(request(kRing), log);
  CHECK(result.outcome == ProgramRunOutcome::Correct);
  CHECK(result.refused.empty());
  CHECK_THAT(log.str(), Catch::Contains("(allreduce, 4 ranks, LL128, nchunksperloop 4"));
  CHECK_THAT(log.str(), Catch::Contains("verification at load: ") &&
                            Catch::Contains(": verified (msccl-legacy profile, from the header): format passed"));
  CHECK_THAT(log.str(), Catch::Contains("path: interpreter, "));
  CHECK_THAT(log.str(), Catch::Contains("check: all ") && Catch::Contains("time: "));
}

TEST_CASE("program run: a sweep writes the nccl-tests table in the format asked for") {
  run::ProgramRunRequest r = request(kRing);
  r.minBytes = "64";
  r.maxBytes = "256";
  r.factor = 4;
  r.format = run::TableFormat::Csv;
  std::ostringstream table;
  CHECK(run::runPrograms(r, table).outcome == ProgramRunOutcome::Correct);
  CHECK_THAT(table.str(), Catch::Contains("\n64,16,float,sum,") && Catch::Contains("\n256,64,float,sum,"));

  r.countGiven = true;
  std::ostringstream unused;
  CHECK_THROWS_WITH(run::runPrograms(r, unused), Catch::Contains("give either --count or -b/-e/-f"));
}

TEST_CASE("program run: a file verify rejects is refused with its report, and nothing runs") {
  run::ProgramRunRequest r = request("msccl-tools/invalid/allreduce_ring_a100_n8_ch8_i5_nchannels40.xml");
  std::ostringstream log;
  const run::ProgramRunResult result = run::runPrograms(r, log);
  CHECK(result.outcome == ProgramRunOutcome::Refused);
  REQUIRE(result.refused.size() == 1);
  CHECK(result.refused.front().verdict == verify::Verdict::Violation);
  CHECK(log.str().empty());
}

TEST_CASE("program run: a call no program serves is refused unless the fallback is asked for") {
  run::ProgramRunRequest r = request(kRing);
  r.count = 7;  // not a multiple of the ring's nchunksperloop, 4
  std::ostringstream log;
  CHECK_THROWS_WITH(run::runPrograms(r, log), Catch::Contains("no program can serve this call"));
  r.fallback = true;
  CHECK(run::runPrograms(r, log).outcome == ProgramRunOutcome::Correct);
  CHECK_THAT(log.str(), Catch::Contains("because no program serves the call"));
}
