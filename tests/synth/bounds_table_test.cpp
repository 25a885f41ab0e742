// The exact bounds table of docs/bounds.md (SCCL's, TACCL's and TE-CCL's machines), reproduced from the catalog.
#include <catch2/catch.hpp>

#include <ctime>

#include "topology/spec_reader.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/bounds/bounds_report.hpp"

#include <nlohmann/json.hpp>

using namespace ccforge;
using namespace ccforge::synth;
using topo::Rational;

namespace {

std::string allGatherAlgbw(const std::string& name) {
  return topo::toFixed(
      collectiveBound(topo::loadTopology(name), semantics::CollectiveType::AllGather).algbwUpperBoundGBps, 2);
}

}  // namespace

TEST_CASE("allgather algbw bounds of the table") {
  CHECK(allGatherAlgbw("dgx1") == "171.43");
  CHECK(allGatherAlgbw("a100-1") == "342.86");
  CHECK(allGatherAlgbw("a100-2") == "346.67");
  CHECK(allGatherAlgbw("a100-4") == "266.67");
  CHECK(allGatherAlgbw("h100-2") == "533.33");
  CHECK(allGatherAlgbw("dgx2-1") == "160.00");
  CHECK(allGatherAlgbw("mi250-1") == "342.86");
  CHECK(allGatherAlgbw("mi250-2") == "354.13");
  CHECK(allGatherAlgbw("ndv2-2") == "25.00");
  CHECK(allGatherAlgbw("ndv2-4") == "16.67");
  CHECK(allGatherAlgbw("dgx2-2") == "129.03");
}

TEST_CASE("steps lower bounds of the table") {
  CHECK(collectiveBound(topo::loadTopology("dgx1"), semantics::CollectiveType::AllGather).stepsLowerBound == 2);
  CHECK(collectiveBound(topo::loadTopology("a100-1"), semantics::CollectiveType::AllGather).stepsLowerBound == 1);
  CHECK(collectiveBound(topo::loadTopology("dgx2-1"), semantics::CollectiveType::AllGather).stepsLowerBound == 1);
  // One route reaches every GCD: the xGMI fabric relays (five GCD-to-GCD hops without).
  CHECK(collectiveBound(topo::loadTopology("mi250-1"), semantics::CollectiveType::AllGather).stepsLowerBound == 1);
}

TEST_CASE("DGX-1 bounds in link-rounds per chunk") {
  topo::Topology t = topo::loadTopology("dgx1");
  CHECK(collectiveBound(t, semantics::CollectiveType::AllGather).roundsPerChunkLowerBound == Rational(7, 6));
  CHECK(collectiveBound(t, semantics::CollectiveType::ReduceScatter).roundsPerChunkLowerBound == Rational(7, 6));
  CHECK(collectiveBound(t, semantics::CollectiveType::AllToAll).roundsPerChunkLowerBound == Rational(8, 3));
  for (int32_t root = 0; root < 8; ++root) {
    INFO("root " << root);
    CHECK(collectiveBound(t, semantics::CollectiveType::Broadcast, root).roundsPerChunkLowerBound == Rational(1, 6));
    CHECK(collectiveBound(t, semantics::CollectiveType::Scatter, root).roundsPerChunkLowerBound == Rational(7, 6));
    CHECK(collectiveBound(t, semantics::CollectiveType::Gather, root).roundsPerChunkLowerBound == Rational(7, 6));
  }
}

TEST_CASE("every bound of every catalog topology up to 32 GPUs takes under 1 s of CPU time") {
  for (const char* name : {"dgx1", "ndv2-1", "ndv2-2", "ndv2-4", "dgx2-1", "dgx2-2", "a100-1", "a100-2", "a100-4",
                           "h100-1", "h100-2", "mi250-1", "mi250-2", "amd-z52"}) {
    INFO(name);
    std::clock_t start = std::clock();
    topo::Topology t = topo::loadTopology(name);
    for (semantics::CollectiveType c : boundedCollectives()) collectiveBound(t, c);
    double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    if (CCFORGE_TIMING_CHECKS)
      CHECK(seconds < 1.0);
    else
      WARN("not an optimised build: " << seconds << " s not checked against the 1 s budget");
  }
}

// The report `ccforge bounds` prints, from the library (synth/bounds/bounds_report.hpp).
TEST_CASE("bounds report: the table and the JSON of dgx1 allgather") {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  const std::vector<CollectiveBound> bounds{collectiveBound(dgx1, semantics::CollectiveType::AllGather)};
  const std::string text = boundsText(dgx1, bounds);
  CHECK(text.starts_with("bounds for dgx1: 8 GPUs, unit "));
  CHECK(text.find("\nallgather                  2") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(boundsJson(dgx1, bounds));
  CHECK(j["gpus"] == 8);
  CHECK(j["collectives"]["allgather"]["steps_lower_bound"] == 2);
  CHECK(j["collectives"]["allgather"]["chunk"] == "M/N");
}
