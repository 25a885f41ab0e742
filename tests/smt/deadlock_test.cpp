// Encodings 1, 3 and 4 against the simulation, and the replay of deadlock witnesses.
#include <catch2/catch.hpp>

#include "../../bench/smt/ring_allreduce.hpp"
#include "programs.hpp"
#include "verify/deadlock.hpp"
#include "verify/smt/deadlock_check.hpp"
#include "verify/smt/deadlock_encoding.hpp"
#include "verify/smt/replay.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;
namespace fs = std::filesystem;

namespace {

smt::QueryRunner z3Runner() { return smt::QueryRunner(smt::RunSettings{}); }

bool sameWaits(const std::vector<verify::BlockedThreadBlock>& a, const std::vector<verify::BlockedThreadBlock>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.tb == y.tb && x.tile == y.tile && x.step == y.step && x.kind == y.kind && x.on == y.on &&
           x.flagNeeded == y.flagNeeded;
  });
}

// The smallest tile-iteration count (maxAllowedCount = 1) at which the simulation deadlocks, up to 8.
int32_t firstDeadlockingTileCount(const test::SmtFixture& p, int32_t slots) {
  for (int32_t tiles = 1; tiles <= 8; ++tiles)
    if (!verify::simulate(p.index(), p.algorithm().proto, {tiles, 1, slots}).completed) return tiles;
  return 0;
}

}  // namespace

TEST_CASE("encoding 1 decides deadlock as the simulation does, and every witness replays to its final state") {
  std::vector<std::unique_ptr<test::SmtFixture>> programs;
  for (int32_t ranks : {2, 3, 5})
    for (ir::Protocol proto : {ir::Protocol::Simple, ir::Protocol::LL128})
      programs.push_back(test::SmtFixture::of(bench::ringAllReduce(ranks, ranks == 3 ? 2 : 1, proto)));
  for (const fs::path& p : test::corpus())
    if (p.parent_path().filename() == "deadlock" || p.parent_path().filename() == "good" ||
        p.parent_path().filename() == "valid")
      if (auto program = test::SmtFixture::read(p)) programs.push_back(std::move(program));
  smt::QueryRunner runner = z3Runner();
  size_t deadlocks = 0, deadlockFree = 0;
  for (const auto& p : programs) {
    INFO(p->algorithm().name);
    for (verify::SimulationConfig config : verify::reachableConfigurations(p->index())) {
      for (int32_t slots : {1, 2, 3}) {
        config.slots = slots;
        INFO(config.describe());
        const verify::SimulationResult sim = verify::simulate(p->index(), p->algorithm().proto, config);
        verify::smt::UnitEventGraph graph(p->index(), p->algorithm().proto, config);
        verify::smt::DeadlockEncoding encoding(graph);
        const smt::QueryOutcome answer = runner.run(encoding.query());
        REQUIRE(answer.answer == (sim.completed ? smt::Answer::Unsat : smt::Answer::Sat));
        if (sim.completed) {
          ++deadlockFree;
          continue;
        }
        ++deadlocks;
        const verify::smt::DeadlockWitness w = encoding.witness(answer.model());
        const verify::smt::UnitReplay replay =
            verify::smt::replayUnitSchedule(p->index(), p->algorithm().proto, config, w.witness.schedule);
        INFO(replay.error);
        REQUIRE(replay.ok);
        CHECK(sameWaits(replay.blocked, sim.blocked));
        CHECK(sameWaits(w.blocked, sim.blocked));
        CHECK(replay.unitsMoved == sim.unitsMoved);
        CHECK(w.witness.blocked.size() == sim.blocked.size());
      }
    }
  }
  CHECK(deadlocks >= 10);
  CHECK(deadlockFree >= 10);
}

TEST_CASE("the replay refuses events that are not enabled and states that are not stuck") {
  auto p = test::SmtFixture::of(bench::ringAllReduce(2, 1, ir::Protocol::Simple));
  const verify::SimulationConfig config{1, 71, 2};
  using E = verify::ScheduleEvent;
  auto replay = [&](const std::vector<E>& schedule) {
    return verify::smt::replayUnitSchedule(p->index(), p->algorithm().proto, config, schedule);
  };
  verify::smt::UnitReplay outOfOrder = replay({E{0, 0, 1, 0, 0, {}, -1}});
  CHECK_FALSE(outOfOrder.ok);
  CHECK(outOfOrder.error ==
        "event 0 (rank 0 tb 0 step 1 tile 0 unit 0): the block's next event is step 0 tile 0 unit 0");
  // Rank 0 sends its chunk (two Simple units), then would receive what rank 1 has not sent.
  verify::smt::UnitReplay early =
      replay({E{0, 0, 0, 0, 0, {}, -1}, E{0, 0, 0, 0, 1, {}, -1}, E{0, 0, 1, 0, 0, {}, -1}});
  CHECK_FALSE(early.ok);
  CHECK(early.error == "event 2 (rank 0 tb 0 step 1 tile 0 unit 0): no data to receive");
  verify::smt::UnitReplay notStuck = replay({});
  CHECK_FALSE(notStuck.ok);
  CHECK(notStuck.error == "rank 0 tb 0 could still run step 0 of tile 0: the state is not stuck");
}

TEST_CASE("the smallest deadlock-free slot count is proved from both sides") {
  // docs/verify.md: the sample ring allreduce for 4 A100s needs 2 slots.
  verify::Options legacy;
  legacy.profile = semantics::legacyProfile();
  auto p = test::SmtFixture::read(test::fixture("msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml"), legacy);
  REQUIRE(p);
  smt::QueryRunner runner = z3Runner();
  verify::smt::DeadlockQueries queries(p->index(), runner);
  const verify::smt::SmtDeadlockResult r = verify::smt::checkDeadlockSmt(p->index(), 8, runner, queries);
  CHECK(r.status == verify::CheckStatus::Passed);
  REQUIRE(r.minimumSlotsDecided);
  CHECK(r.minimumSlots == 2);
  CHECK(r.minimumSlotsProof ==
        "deadlock-free with 2 slots (unsat in every configuration); deadlocks with 1 (sat: tiles=1 maxAllowedCount=71 "
        "slots=1)");
  CHECK(r.internalErrors.empty());
}

TEST_CASE("every tile count: a periodic schedule proves it, or the smallest deadlocking count is shown") {
  smt::QueryRunner runner = z3Runner();
  auto parametric = [&](const test::SmtFixture& p, int32_t slots) {
    verify::smt::DeadlockQueries queries(p.index(), runner);
    return verify::smt::checkEveryTileCount(p.index(), slots, runner, queries);
  };
  SECTION("a ring allreduce is deadlock-free for every tile count") {
    for (ir::Protocol proto : {ir::Protocol::Simple, ir::Protocol::LL}) {
      auto p = test::SmtFixture::of(bench::ringAllReduce(4, 2, proto));
      const verify::smt::ParametricResult r = parametric(*p, 2);
      CHECK(r.verdict == verify::smt::ParametricResult::Verdict::EveryTileCount);
      CHECK(r.text.ends_with("(certificate checked)"));
      CHECK(r.internalError.empty());
      CHECK(firstDeadlockingTileCount(*p, 2) == 0);
    }
  }
  SECTION("with one slot the ring deadlocks in its first iteration") {
    auto p = test::SmtFixture::of(bench::ringAllReduce(4, 1, ir::Protocol::Simple));
    const verify::smt::ParametricResult r = parametric(*p, 1);
    CHECK(r.verdict == verify::smt::ParametricResult::Verdict::Counterexample);
    CHECK(r.counterexampleTiles == firstDeadlockingTileCount(*p, 1));
    CHECK(r.counterexampleTiles == 1);
  }
  SECTION("an unbalanced connection deadlocks once its surplus fills the slots") {
    auto p = test::SmtFixture::read(test::fixture("verify/connections/count_mismatch.xml"));
    REQUIRE(p);
    const verify::smt::ParametricResult r = parametric(*p, 2);
    CHECK(r.verdict == verify::smt::ParametricResult::Verdict::Counterexample);
    CHECK(r.counterexampleTiles == firstDeadlockingTileCount(*p, 2));
    CHECK(r.counterexampleTiles == 3);
    CHECK(r.text.find("carries 4 FIFO units per iteration from the sender but 2 to the receiver") != std::string::npos);
  }
  SECTION("a dependency that only the next iteration satisfies hangs after the last one") {
    ir::Algorithm a = bench::ringAllReduce(2, 1, ir::Protocol::Simple);
    // Rank 0: tb 1 waits for tb 0's step 1, which publishes nothing; tb 0's step 0 publishes its flag.
    a.gpus[0].threadBlocks[0].steps[0].hasdep = true;
    ir::ThreadBlock waiter;
    waiter.id = 1;
    ir::Step nop;
    nop.type = ir::OpType::Copy;
    nop.srcbuf = nop.dstbuf = ir::Buffer::Input;
    nop.srcoff = nop.dstoff = 0;
    nop.cnt = 1;
    nop.depid = 0;
    nop.deps = 1;
    waiter.steps.push_back(nop);
    a.gpus[0].threadBlocks.push_back(waiter);
    auto p = test::SmtFixture::of(a);
    REQUIRE(p);
    const verify::smt::ParametricResult r = parametric(*p, 2);
    CHECK(r.verdict == verify::smt::ParametricResult::Verdict::Counterexample);
    CHECK(r.counterexampleTiles == firstDeadlockingTileCount(*p, 2));
    CHECK(r.counterexampleTiles == 1);
    CHECK(r.text.find("waits for a flag that no iteration provides in time") != std::string::npos);
  }
}
