// Encoding 2, its replay, and the exhaustive oracle, against the symbolic execution and the race
// fixtures' known outcomes.
#include <catch2/catch.hpp>

#include "interleaving_oracle.hpp"
#include "programs.hpp"
#include "verify/layouts.hpp"
#include "verify/smt/data_check.hpp"
#include "verify/smt/data_replay.hpp"
#include "verify/step_graph.hpp"
#include "verify/symbolic_execution.hpp"
#include "support/verify_support.hpp"

using namespace ccforge;
namespace fs = std::filesystem;

namespace {

// The simulation's step order as a schedule of atomic steps.
std::vector<verify::ScheduleEvent> inOrder(const verify::smt::DataSetting& setting, const verify::StepGraph& graph) {
  const semantics::LoadedProgram& index = setting.index();
  std::vector<verify::ScheduleEvent> out;
  for (uint32_t s : graph.order()) {
    const verify::StepRef r = verify::stepRef(index, s);
    const semantics::LoadedStep& st = index.step(s);
    const int32_t n = st.type == ir::OpType::Nop ? 0 : st.cnt;
    out.push_back({r.rank, r.tb, r.step, 0, -1, "begin", -1});
    for (int32_t j = 0; j < n; ++j) out.push_back({r.rank, r.tb, r.step, 0, -1, "read", j});
    for (int32_t j = 0; j < n; ++j)
      if (setting.destinationCell(s, j) != verify::smt::kOutside)
        out.push_back({r.rank, r.tb, r.step, 0, -1, "write", j});
    out.push_back({r.rank, r.tb, r.step, 0, -1, "end", -1});
  }
  return out;
}

verify::smt::SmtDataResult checkData(const test::SmtFixture& p, verify::SmtSolvers solvers,
                                     verify::Findings& findings) {
  smt::RunSettings settings;
  settings.solvers =
      solvers == verify::SmtSolvers::Cvc5 ? std::vector{smt::SolverKind::Cvc5} : std::vector{smt::SolverKind::Z3};
  smt::QueryRunner runner(settings);
  std::vector<semantics::CallForm> forms = verify::callFormsOf(p.algorithm());
  const verify::BoxLayout oneBox = verify::BoxLayout::oneBox();
  verify::smt::DataCheckInput input{p.index(), p.collective(), forms, p.bufferLengths(), 2, oneBox};
  return verify::smt::checkDataSmt(input, runner, findings);
}

}  // namespace

TEST_CASE("replaying the simulation's order computes what the symbolic execution computes") {
  size_t compared = 0;
  for (const fs::path& path : test::corpus()) {
    auto p = test::SmtFixture::read(path);
    if (!p || !p->collective()) continue;
    // The SMT encodings do not model compute steps; the verifier decides fused programs by
    // simulation only (docs/fused.md).
    if (p->algorithm().fused) continue;
    INFO(path.string());
    verify::StepGraph graph(p->index(), verify::BackPressure{});
    verify::smt::SyncGraph sync(p->index(), verify::BackPressure{});
    REQUIRE(sync.order().size() == graph.order().size());
    for (semantics::CallForm form : verify::callFormsOf(p->algorithm())) {
      std::vector<semantics::RankLayout> layouts = verify::rankLayouts(p->collective(), form, p->bufferLengths());
      semantics::ChunkValues values;
      verify::SymbolicExecution exec(p->index(), layouts, *p->collective(), values);
      exec.run(graph);
      verify::smt::DataSetting setting(p->index(), layouts, p->collective(), values);
      const verify::smt::DataReplay replay = verify::smt::replayDataSchedule(setting, sync, inOrder(setting, graph));
      INFO(replay.error);
      REQUIRE(replay.ok);
      for (size_t k = 0; k < setting.outputs().size(); ++k) {
        const verify::smt::OutputChunk& o = setting.outputs()[k];
        CHECK(replay.outputs[k] == exec.cell(o.rank, ir::Buffer::Output, o.index).value);
      }
      ++compared;
    }
  }
  CHECK(compared >= 30);
}

TEST_CASE("races that change the result are told from races that do not") {
  struct Case {
    const char* file;
    bool changesResult;  // what the fixture's race does to the outputs
  };
  // write_write_unordered: both blocks write in(0,0); in_place_alias: a block copies a chunk onto
  // itself; the others read a scratch chunk that may not be written yet.
  const Case cases[] = {{"verify/races/write_write_unordered.xml", false},
                        {"verify/races/in_place_alias.xml", false},
                        {"verify/races/write_read_unordered.xml", true},
                        {"verify/races/unordered_without_round_trip.xml", true}};
  for (const Case& c : cases) {
    INFO(c.file);
    auto p = test::SmtFixture::read(test::fixture(c.file));
    REQUIRE(p);
    bool oracleChanges = false;
    for (semantics::CallForm form : verify::callFormsOf(p->algorithm())) {
      std::vector<semantics::RankLayout> layouts = verify::rankLayouts(p->collective(), form, p->bufferLengths());
      semantics::ChunkValues values;
      verify::smt::DataSetting setting(p->index(), layouts, p->collective(), values);
      verify::smt::SyncGraph graph(
          p->index(), {verify::backPressureDistance(p->algorithm().proto, 2), verify::BoxLayout::oneBox()});
      auto outcomes = test::everyOutcome(setting, graph);
      REQUIRE(outcomes);
      oracleChanges = oracleChanges || outcomes->size() > 1;
    }
    CHECK(oracleChanges == c.changesResult);
    for (verify::SmtSolvers solvers : {verify::SmtSolvers::Z3, verify::SmtSolvers::Cvc5}) {
      verify::Findings findings(c.file, 20);
      const verify::smt::SmtDataResult r = checkData(*p, solvers, findings);
      CHECK(r.races == (c.changesResult ? verify::CheckStatus::Failed : verify::CheckStatus::Passed));
      CHECK(findings.hasErrors(verify::Check::Races) == c.changesResult);
      CHECK(r.internalErrors.empty());
      for (const verify::Witness& w : r.witnesses) CHECK(w.replay.starts_with("replayed"));
    }
  }
}

TEST_CASE("the data replay refuses schedules the synchronisation forbids") {
  auto p = test::SmtFixture::read(test::fixture("verify/good/write_read_ordered_by_dependency.xml"));
  REQUIRE(p);
  std::vector<semantics::RankLayout> layouts =
      verify::rankLayouts(p->collective(), semantics::CallForm::OutOfPlace, p->bufferLengths());
  semantics::ChunkValues values;
  verify::smt::DataSetting setting(p->index(), layouts, p->collective(), values);
  verify::smt::SyncGraph graph(p->index(), verify::BackPressure{});
  std::vector<verify::ScheduleEvent> schedule = verify::smt::atomicSchedule(setting, graph);
  REQUIRE(verify::smt::replayDataSchedule(setting, graph, schedule).ok);
  // Move the dependent step (tb 1) in front of everything.
  std::stable_partition(schedule.begin(), schedule.end(), [](const verify::ScheduleEvent& e) { return e.tb == 1; });
  const verify::smt::DataReplay early = verify::smt::replayDataSchedule(setting, graph, schedule);
  CHECK_FALSE(early.ok);
  CHECK(early.error == "rank 0 tb 0 step 0 must end before rank 0 tb 1 step 0");
  schedule.pop_back();
  CHECK(verify::smt::replayDataSchedule(setting, graph, schedule)
            .error.ends_with("runs but the schedule lacks some of its events"));
}

TEST_CASE("chunks with too many possible values leave the checks inconclusive, not decided") {
  // Two unordered blocks keep reducing each other's output chunk into their own.
  ir::Algorithm a;
  a.name = "t";
  a.nchunksperloop = 2;
  a.ngpus = 1;
  a.collName = "allreduce";
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = a.maxBytes = 0;
  ir::Gpu g;
  g.inputChunks = g.outputChunks = 2;
  for (int32_t tb = 0; tb < 2; ++tb) {
    ir::ThreadBlock block;
    block.id = tb;
    for (int32_t i = 0; i < 6; ++i) {
      ir::Step s;
      s.s = i;
      s.type = ir::OpType::Reduce;
      s.srcbuf = s.dstbuf = ir::Buffer::Output;
      s.srcoff = 1 - tb;
      s.dstoff = tb;
      s.cnt = 1;
      block.steps.push_back(s);
    }
    g.threadBlocks.push_back(block);
  }
  a.gpus.push_back(g);
  auto p = test::SmtFixture::of(a);
  REQUIRE(p);
  verify::Findings findings("t", 20);
  const verify::smt::SmtDataResult r = checkData(*p, verify::SmtSolvers::Z3, findings);
  CHECK(r.races == verify::CheckStatus::Inconclusive);
  CHECK(r.racesNote.find("can hold more than 64 different values") != std::string::npos);
  CHECK_FALSE(findings.hasErrors());
}
