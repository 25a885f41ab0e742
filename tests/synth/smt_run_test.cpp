// The SMT-synthesis run and its report as a library caller gets them (synth/sccl/smt_run.hpp,
// smt_report.hpp), and the method choice and size limits every synth request passes first
// (synth/method.hpp): what `ccforge synth` prints is these, unchanged.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "base/limits.hpp"
#include "sccl_test_support.hpp"
#include "synth/method.hpp"
#include "synth/sccl/smt_report.hpp"
#include "synth/sccl/smt_run.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::synth;
using ccforge::testing::family;

// Ring of 4 (sccl_test.cpp): allgather needs 2 steps; (1,2,2) is sat, so one instance gives one
// point per call form (out of place, in place), both verified, and nothing is written.
TEST_CASE("smt run: one instance on a ring of 4, its text and JSON report") {
  sccl::SmtRunOptions o;
  o.mode = sccl::SearchMode::Instance;
  o.chunks = 1, o.steps = 2, o.rounds = 2;
  std::vector<std::string> phases;
  o.phase = [&](const std::string& p) { phases.push_back(p); };
  const sccl::SmtRun run =
      sccl::runSmtSynthesis(family(topo::Family::Ring, 4), semantics::CollectiveType::AllGather, 0, o);
  REQUIRE(run.points.size() == 2);
  CHECK(run.ranks == 4);
  CHECK(run.bound.stepsLowerBound == 2);
  CHECK(run.history.size() == 1);
  CHECK(run.result.complete);
  CHECK(phases.front().starts_with("computing the lower bounds"));
  CHECK(phases.back() == "compiling and verifying 1 frontier program");
  for (const sccl::FrontierPoint& p : run.points) {
    CHECK(p.emitted.verified());
    CHECK(p.file.empty());
  }
  const std::string text = sccl::smtRunText("ring4", "allgather", "z3", run, false);
  CHECK(text.starts_with("synth ring4 allgather: 4 GPUs; bounds: steps >= 2, rounds per chunk >= 3/2; solver z3\n"));
  CHECK(text.find("(C,S,R) = (1,2,2)  R/C 2") != std::string::npos);
  CHECK(text.find("instances: 1 (sat 1, unsat 0, unknown 0, pruned 0)") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(sccl::smtRunJson("ring4", "z3", run));
  CHECK(j["method"] == "smt");
  CHECK(j["collective"] == "allgather");
  CHECK(j["frontier"].size() == 2);
  CHECK(j["instances"][0]["result"] == "sat");
}

TEST_CASE("synth method: auto is trees on several boxes and SMT on one; a named method wins") {
  CHECK(methodFor(topo::loadTopology("dgx1"), std::nullopt) == Method::Smt);
  CHECK(methodFor(topo::loadTopology("a100-2"), std::nullopt) == Method::Trees);
  CHECK(methodFor(topo::loadTopology("dgx1"), Method::Trees) == Method::Trees);
}

TEST_CASE("synth request sizes: instance parts out of range and instances over the work limit are refused") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  CHECK_NOTHROW(checkRequestSize(dgx1, Method::Smt, {2, 2, 3}));
  CHECK_THROWS_AS(checkRequestSize(dgx1, Method::Smt, {0, 2, 3}), std::invalid_argument);
  CHECK_THROWS_AS(checkRequestSize(dgx1, Method::Smt, {base::limits::kMaxSmtInstanceSize + 1, 2, 3}),
                  std::invalid_argument);
  // C x max(S,R) x GPUs: 16 x 16 x 8 = 2048 is the limit itself, 17 x 16 x 8 is over it.
  CHECK_NOTHROW(checkRequestSize(dgx1, Method::Smt, {16, 16, 16}));
  CHECK_THROWS_AS(checkRequestSize(dgx1, Method::Smt, {17, 16, 16}), base::LimitExceeded);
  CHECK_NOTHROW(checkRequestSize(dgx1, Method::Trees, {17, 16, 16}));  // the tree method has no instance
  CHECK_THROWS_AS(checkRequestSize(family(topo::Family::Ring, base::limits::kMaxSmtSynthGpus + 1), Method::Smt, {}),
                  base::LimitExceeded);
}
