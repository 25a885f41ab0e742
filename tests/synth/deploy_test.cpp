// Which programs an algorithm directory gets and their size windows (src/synth/deploy). Expected
// windows are worked out by hand from the cost curves stated in each case, and the runtime's
// selection rule (docs/verify.md "Directories": internal scheduler (count*m) % nchunksperloop,
// plugin count % nchunksperloop, minBytes <= bytes <= maxBytes with maxBytes 0 unbounded).
#include <catch2/catch.hpp>

#include "synth/deploy/cost_envelope.hpp"
#include "synth/deploy/deployment.hpp"

using namespace ccforge;
using namespace ccforge::synth::deploy;

namespace {

using Ranges = std::vector<std::optional<SizeRange>>;
const std::vector<std::optional<double>> kNoEnds2(2);

void checkRange(const std::optional<SizeRange>& r, double low, std::optional<double> high) {
  REQUIRE(r);
  CHECK(r->low == Approx(low));
  if (high) {
    REQUIRE(r->high);
    CHECK(*r->high == Approx(*high));
  } else {
    CHECK_FALSE(r->high);
  }
}

// An allgather header as the compiler writes it for msccl-executor: out-of-place, minBytes 0,
// maxBytes 0 (unbounded) unless given.
ir::Algorithm allgather(int32_t nchunksperloop, int64_t maxBytes = 0, int32_t ranks = 8) {
  ir::Algorithm a;
  a.name = "ag" + std::to_string(nchunksperloop);
  a.coll = ir::CollectiveKind::AllGather;
  a.collName = "allgather";
  a.ngpus = ranks;
  a.nchunksperloop = nchunksperloop;
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = 0;
  a.maxBytes = maxBytes;
  return a;
}

// Time = intercept + slope * bytes.
DeployCandidate line(const ir::Algorithm& a, double interceptUs, double usPerByte) {
  return {&a, CostCurve::affine(interceptUs, usPerByte)};
}

void checkWindow(const Deployment& d, int64_t minBytes, std::optional<int64_t> maxBytes) {
  INFO(d.notWritten);
  REQUIRE(d.window);
  CHECK(d.window->minBytes == minBytes);
  CHECK(d.window->maxBytes == maxBytes);
}

}  // namespace

TEST_CASE("cost curves: samples joined by straight lines, the end pieces continued") {
  const CostCurve c({{10, 10}, {20, 40}, {30, 40}});
  CHECK(c.at(0) == Approx(-20));  // the first piece continued: slope 3
  CHECK(c.at(15) == Approx(25));
  CHECK(c.at(25) == Approx(40));
  CHECK(c.at(100) == Approx(40));  // the last piece continued: flat
  CHECK(c.slopeFrom(20) == Approx(0));
  CHECK(c.slopeFrom(19) == Approx(3));
  CHECK(c.kinks() == std::vector<double>{20});
  CHECK(CostCurve({{5, 7}}).at(1e9) == 7);
  CHECK(CostCurve::affine(1.4, 5e-6).at(420000) == Approx(3.5));
  CHECK_THROWS_AS(CostCurve({}), std::invalid_argument);
  CHECK_THROWS_AS(CostCurve({{2, 1}, {2, 3}}), std::invalid_argument);
}

TEST_CASE("fastest ranges of straight lines meet where the times are equal; the flatter takes the tie") {
  // 2x against 1000 + x: equal at 1000.
  const Ranges r = fastestRanges({CostCurve::affine(0, 2), CostCurve::affine(1000, 1)}, kNoEnds2);
  checkRange(r[0], 0, 1000);
  checkRange(r[1], 1000, std::nullopt);
  // Equal at 0: the flatter line has every size.
  const Ranges tie = fastestRanges({CostCurve::affine(5, 2), CostCurve::affine(5, 1)}, kNoEnds2);
  CHECK_FALSE(tie[0]);
  checkRange(tie[1], 0, std::nullopt);
}

TEST_CASE("fastest ranges of sampled curves: crossings between samples and at kinks") {
  // x for x <= 10, then 10 + 3(x - 10), against a constant 20: equal at 10 + 10/3.
  const Ranges r = fastestRanges({CostCurve({{0, 0}, {10, 10}, {20, 40}}), CostCurve({{0, 20}})}, kNoEnds2);
  checkRange(r[0], 0, 10 + 10.0 / 3);
  checkRange(r[1], 10 + 10.0 / 3, std::nullopt);
}

TEST_CASE("fastest ranges: one range per candidate; a curve that would win again leaves the sizes to the other") {
  // Up to 10 at 10, back to 0 at 20, against a constant 5: the first is faster below 5 and again
  // above 15, but keeps only [0, 5).
  const Ranges r = fastestRanges({CostCurve({{0, 0}, {10, 10}, {20, 0}}), CostCurve({{0, 5}})}, kNoEnds2);
  checkRange(r[0], 0, 5);
  checkRange(r[1], 5, std::nullopt);
}

TEST_CASE("fastest ranges stop at a candidate's end; the next fastest takes over there") {
  // x (ends at 3) against a constant 5: the line would be faster up to 5.
  const Ranges r = fastestRanges({CostCurve::affine(0, 1), CostCurve({{0, 5}})}, {3.0, std::nullopt});
  checkRange(r[0], 0, 3);
  checkRange(r[1], 3, std::nullopt);
  // Nothing after the only candidate's end.
  const Ranges alone = fastestRanges({CostCurve::affine(0, 1)}, {3.0});
  checkRange(alone[0], 0, 3);
}

TEST_CASE("fastest ranges: a candidate enters the running at its start") {
  // The dip of the test above (0 at 0, 10 at 10, 0 at 20) starting at 12 against a constant 5:
  // at 12 it takes 8, so the constant keeps the sizes until the dip falls to 5 at 15.
  const Ranges r = fastestRanges({CostCurve({{0, 0}, {10, 10}, {20, 0}}), CostCurve({{0, 5}})}, kNoEnds2, {12.0, 0.0});
  checkRange(r[1], 0, 15);
  checkRange(r[0], 15, std::nullopt);
  // Faster already where it enters: it takes over at its start.
  const Ranges at = fastestRanges({CostCurve::affine(0, 1), CostCurve({{0, 5}})}, kNoEnds2, {2.0, 0.0});
  checkRange(at[1], 0, 2);
  checkRange(at[0], 2, std::nullopt);
  // Alone, it has the sizes from its start.
  const Ranges alone = fastestRanges({CostCurve::affine(0, 1)}, {std::nullopt}, {7.0});
  checkRange(alone[0], 7, std::nullopt);
  CHECK_THROWS_AS(fastestRanges({CostCurve::affine(0, 1)}, {std::nullopt}, {1.0, 2.0}), std::invalid_argument);
}

TEST_CASE("deployment: adjacent whole-byte windows from the crossing, the first from 0, the last unbounded") {
  // 2x against 1000 + x: equal at 1000 bytes, which goes to the flatter program.
  const ir::Algorithm small = allgather(16), large = allgather(64);
  const auto plan = planDeployment({line(small, 0, 2), line(large, 1000, 1)}, semantics::executorProfile());
  checkWindow(plan[0], 0, 999);
  checkWindow(plan[1], 1000, std::nullopt);
  // Equal at 1000.5: the first keeps 1000 bytes.
  const auto half = planDeployment({line(small, 0, 2), line(large, 1000.5, 1)}, semantics::executorProfile());
  checkWindow(half[0], 0, 1000);
  checkWindow(half[1], 1001, std::nullopt);
}

TEST_CASE(
    "deployment: a program whose nchunksperloop divides no power-of-two count is not written; "
    "the other takes its sizes") {
  // SCCL's DGX-1 allgather (6,3,7): 8 ranks x 6 chunks = 48 = 3 x 16. The internal scheduler
  // tests count*8 % 48, true for multiples of 6; the plugin count % 48.
  const ir::Algorithm c2 = allgather(16), c6 = allgather(48);
  const auto plan =
      planDeployment({line(c2, 1.4, 1.5 * 5e-6), line(c6, 2.1, 7.0 / 6 * 5e-6)}, semantics::executorProfile());
  checkWindow(plan[0], 0, std::nullopt);
  CHECK_FALSE(plan[1].window);
  CHECK(plan[1].notWritten ==
        "nchunksperloop=48 divides count*8 for no power-of-two count; it serves only counts that are multiples of 6 "
        "(under the internal scheduler); nchunksperloop=48 divides count for no power-of-two count; it serves only "
        "counts that are multiples of 48 (under the msccl-scheduler plugin)");
}

TEST_CASE("deployment: the window stays within the compiler's maxBytes") {
  // 2x against 1000 + x, the flatter one compiled with maxBytes 5000 (its tile-iteration bound):
  // 1000..5000; larger calls go to NCCL.
  const ir::Algorithm small = allgather(16), large = allgather(64, 5000);
  const auto plan = planDeployment({line(small, 0, 2), line(large, 1000, 1)}, semantics::executorProfile());
  checkWindow(plan[0], 0, 999);
  checkWindow(plan[1], 1000, 5000);
}

TEST_CASE("deployment: a program no call of its window selects leaves the window to the others") {
  // 10x against a constant 1000: the first is faster below 100 bytes, but with nchunksperloop
  // 256 on 8 ranks its smallest call is count 32 (internal: 32*8 % 256 == 0), 32 * 8 = 256 bytes.
  const ir::Algorithm steep = allgather(256), flat = allgather(8);
  const auto plan = planDeployment({line(steep, 0, 10), line(flat, 1000, 0)}, semantics::executorProfile());
  CHECK_FALSE(plan[0].window);
  CHECK(plan[0].notWritten ==
        "it serves no power-of-two count within 0..99 bytes (under the internal scheduler and the msccl-scheduler "
        "plugin)");
  checkWindow(plan[1], 0, std::nullopt);
}

TEST_CASE("deployment: programs of different call forms do not compete; a dominated one is not written") {
  ir::Algorithm inPlace = allgather(16);
  inPlace.inplace = true;
  inPlace.outofplace = false;
  const ir::Algorithm outOfPlace = allgather(16), slower = allgather(16);
  const auto plan =
      planDeployment({line(outOfPlace, 0, 1), line(inPlace, 50, 2), line(slower, 10, 1)}, semantics::executorProfile());
  checkWindow(plan[0], 0, std::nullopt);
  checkWindow(plan[1], 0, std::nullopt);
  CHECK_FALSE(plan[2].window);
  CHECK(plan[2].notWritten == "another program written is predicted faster at every size");
}

TEST_CASE("deployment: a collective no NCCL call reaches is not written") {
  ir::Algorithm gather = allgather(16);
  gather.coll = ir::CollectiveKind::Gather;
  gather.collName = "gather";
  const auto plan = planDeployment({line(gather, 0, 1)}, semantics::executorProfile());
  CHECK_FALSE(plan[0].window);
  CHECK(plan[0].notWritten ==
        "no NCCL call reaches coll=\"gather\" (under the internal scheduler and the msccl-scheduler plugin)");
}

TEST_CASE("deployment: the header gets the window, maxBytes 0 for no upper end") {
  ir::Algorithm a = allgather(16);
  setWindow(a, {1000, std::nullopt});
  CHECK(a.minBytes == 1000);
  CHECK(a.maxBytes == 0);
  setWindow(a, {0, 999});
  CHECK(a.maxBytes == 999);
  CHECK(windowText({0, 999}) == "0..999 bytes");
  CHECK(windowText({1000, std::nullopt}) == "1000..unbounded bytes");
}
