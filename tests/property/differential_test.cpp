// The differential property test (issue 11): `verify` against the CPU runtime and the simulator on
// generated programs (program_generator.hpp). For every program:
//   - VERIFIED: the CPU runtime matches the reference in every call form the program serves, for
//     every regime of engine_runs.hpp (several chunks per transfer, 2 and 3 per transfer, one per
//     transfer in 1, 2 and 4 tile iterations) and one more type and operator; `simulate` finishes
//     in every configuration the verifier checks; with the smallest slot count verify states the
//     runtime finishes, with one fewer it deadlocks in some configuration.
//   - postcondition, race or deadlock findings carry their evidence (evidence.hpp).
//   - only wrong chunks (no race, no other error): the runtime computes exactly those chunks wrong
//     (all their elements, unless the wrong value includes uninitialised scratch, which the runtime
//     zeroes), in two tilings, and `simulate` finishes. Deterministic: no race, so one result.
//   - only races (besides wrong chunks): the runtime runs to the end, and `simulate` finishes.
//   - a deadlock: the runtime's watchdog reports a deadlock and `simulate` a SimulationViolation, in
//     the configuration the finding names (with diverging connections the runtime's FIFO state is
//     undefined: its 2 s time limit may stop it instead).
//   - every tenth program is decided by both engines (--engine both): no disagreement, and the
//     SMT engine's witness schedules for wrong results and deadlocks replay.
//   - whatever the verdict, the runtime refuses a program only when `verify` reports an error other
//     than a race, a wrong chunk or a deadlock; a malformed or internal-error verdict is a failure.
// Seeds are fixed; a failure prints the seed, the mutations, the report and the program. Replay one:
//   CCFORGE_PROPERTY_SEED=<seed> build/tests/property/property_tests "replay one seed"
// and search longer with CCFORGE_PROPERTY_PROGRAMS=<programs per block> (1000 by default).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "engine_runs.hpp"
#include "evidence.hpp"
#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "ir/reader.hpp"
#include "ir/writer.hpp"
#include "program_generator.hpp"
#include "seed_blocks.hpp"
#include "runtime/loader.hpp"
#include "sim/program_run.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;
using namespace ccforge::property;

namespace {

// Every tenth program is also decided by the SMT engine (--engine both): the engines must agree and
// each wrong result or deadlock must come with a witness schedule that replays.
constexpr uint64_t kSmtEvery = 10;

// The configurations the verifier's deadlock check covers for a size window of 0..unbounded.
const std::vector<std::pair<int32_t, int32_t>> kVerifierConfigurations{{1, 71}, {1, 1}, {2, 1}, {3, 1}};

struct Tally {
  int programs = 0, verified = 0, postcondition = 0, race = 0, deadlock = 0, otherViolation = 0, inconclusive = 0;
  int mutated = 0, runtimeRuns = 0, simulations = 0, wrongResultsSeen = 0, deadlocksSeen = 0, smtChecked = 0;
  int minimumSlotsChecked = 0;  // verified programs that need more than one slot, checked with fewer
  std::map<std::string, int> otherRules;
  std::map<std::string, int> verifiedWith;  // features of the verified programs

  std::string describe() const {
    std::ostringstream out;
    out << programs << " programs (" << mutated << " mutated): " << verified << " verified, " << postcondition
        << " with wrong chunks, " << race << " with races (only), " << deadlock << " deadlocking, " << otherViolation
        << " with other violations, " << inconclusive << " inconclusive; " << runtimeRuns << " runtime calls ("
        << wrongResultsSeen << " wrong results and " << deadlocksSeen << " deadlocks as predicted), " << simulations
        << " simulations, " << smtChecked << " violations with SMT witnesses checked, " << minimumSlotsChecked
        << " minimum slot counts checked. Other violations by first rule:";
    for (const auto& [rule, count] : otherRules) out << " " << rule << " " << count;
    out << ". Verified programs with:";
    for (const auto& [feature, count] : verifiedWith) out << " " << feature << " " << count << ",";
    return out.str();
  }
};

std::string describeReport(const verify::FileReport& r) {
  std::string out = std::string(verify::verdictName(r.verdict)) + (r.error.empty() ? "" : ": " + r.error) + "\n";
  for (const verify::Violation& v : r.violations) {
    out += "  " + v.rule + ": " + v.message + "\n";
    for (const std::string& e : v.evidence) out += "    " + e + "\n";
  }
  return out;
}

class ProgramCheck {
 public:
  ProgramCheck(uint64_t seed, Tally& tally) : seed_(seed), tally_(tally), generated_(generateProgram(seed)) {}

  // What the engines disagree on (empty: nothing); `details` receives the program and the report.
  std::vector<std::string> run(std::string& details) {
    const ir::Algorithm& a = generated_.algorithm;
    const std::string source = a.name + ".xml";
    const std::string xml = ir::toXml(a);
    details = "seed " + std::to_string(seed_) + "; mutations:";
    for (const std::string& m : generated_.mutations) details += " [" + m + "]";
    details += "\n" + xml;
    ++tally_.programs;
    if (!generated_.mutations.empty()) ++tally_.mutated;
    try {
      read_ = ir::readAlgorithm(xml, source);
    } catch (const base::InputError& e) {
      return {std::string("the writer's output does not read back: ") + e.what()};
    }
    verify::Options options;
    options.maxReportedPerRule = 1000;
    if (seed_ % kSmtEvery == 0) options.engine = verify::Engine::Both;
    if (isRooted(generated_.collective))
      options.collective =
          std::string(collectiveTypeName(generated_.collective)) + ":" + std::to_string(generated_.root);
    report_ = verify::verifyAlgorithm(read_.algorithm, source, options, read_.runtimeParserIssues);
    details += "verify: " + describeReport(report_);
    switch (report_.verdict) {
      case verify::Verdict::Verified: checkVerified(); break;
      case verify::Verdict::Violation: checkViolation(); break;
      case verify::Verdict::Inconclusive: ++tally_.inconclusive; break;
      default: problems_.push_back("verify ends with verdict " + std::string(verify::verdictName(report_.verdict)));
    }
    return problems_;
  }

 private:
  const ir::Algorithm& algorithm() const { return read_.algorithm; }
  semantics::Collective collective() const {
    return semantics::Collective::standard(generated_.collective, algorithm().ngpus, algorithm().nchunksperloop,
                                           generated_.root);
  }
  std::vector<semantics::CallForm> forms() const {
    std::vector<semantics::CallForm> out;
    if (algorithm().servesInPlace()) out.push_back(semantics::CallForm::InPlace);
    if (algorithm().servesOutOfPlace()) out.push_back(semantics::CallForm::OutOfPlace);
    return out;
  }

  std::optional<runtime::ExecutableProgram> load(const std::string& unless) {
    try {
      return runtime::loadExecutable(algorithm(), algorithm().name + ".xml", runtime::LoadOptions{});
    } catch (const base::InputError& e) {
      if (!unless.empty()) problems_.push_back("the runtime refuses it (" + std::string(e.what()) + "), but " + unless);
      return std::nullopt;
    }
  }

  RuntimeRun call(const runtime::ExecutableProgram& p, const Regime& regime, semantics::CallForm form,
                  runtime::DataType dtype = runtime::DataType::I32, runtime::ReduceOp op = runtime::ReduceOp::Sum,
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(10000)) {
    ++tally_.runtimeRuns;
    CallSettings s;
    s.form = form;
    s.root = generated_.root;
    s.dtype = dtype;
    s.op = op;
    s.workers = 1 + static_cast<int>((seed_ + static_cast<uint64_t>(tally_.runtimeRuns)) % 2);
    s.inputSeed = seed_;
    s.timeout = timeout;
    return runOnCpu(p, regime, s);
  }

  // Empty when simulate finishes, else what it threw.
  std::string simulation(const std::vector<std::pair<int32_t, int32_t>>& configurations, bool* violation = nullptr) {
    ++tally_.simulations;
    try {
      simulate(algorithm(), configurations, seed_);
      return "";
    } catch (const sim::SimulationViolation& e) {
      if (violation) *violation = true;
      return std::string("SimulationViolation: ") + e.what();
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  // What a verified program exercises, for the tally.
  void countFeatures() {
    const ir::Algorithm& a = algorithm();
    std::set<std::string> f;
    for (const ir::Gpu& g : a.gpus)
      for (const ir::ThreadBlock& t : g.threadBlocks)
        for (size_t i = 0; i < t.steps.size(); ++i) {
          const ir::Step& st = t.steps[i];
          f.insert(std::string("'") + std::string(ir::opTypeName(st.type)) + "'");
          if (st.type != ir::OpType::Reduce || i + 1 == t.steps.size()) continue;
          const ir::Step& next = t.steps[i + 1];
          if (next.type == ir::OpType::Reduce && next.dstbuf == st.dstbuf && next.dstoff == st.dstoff &&
              next.srcbuf == st.srcbuf && next.depid < 0)
            f.insert(st.hasdep
                         ? (st.cnt != next.cnt ? "re chain ended by hasdep, cnt changing" : "re chain ended by hasdep")
                         : "fused re chain");
        }
    for (size_t i = 0; i < a.gpus.size(); ++i)
      if (a.gpus[i].id != static_cast<int32_t>(i)) f.insert("gpu elements out of id order");
    f.insert(a.servesInPlace() && a.servesOutOfPlace() ? "both call forms"
             : a.servesInPlace()                       ? "in place"
                                                       : "out of place");
    f.insert(std::string(ir::protocolName(a.proto)));
    f.insert(std::to_string(a.ngpus) + " ranks");
    f.insert(std::string(collectiveTypeName(generated_.collective)));
    for (const verify::Violation& v : report_.violations) f.insert("warning " + v.rule);
    for (const std::string& x : f) ++tally_.verifiedWith[x];
  }

  void checkVerified() {
    ++tally_.verified;
    countFeatures();
    const std::optional<runtime::ExecutableProgram> p = load("verify says VERIFIED");
    if (!p) return;
    for (semantics::CallForm form : forms())
      for (const Regime& regime : regimes()) {
        const RuntimeRun r = call(*p, regime, form);
        if (r.outcome != RunOutcome::Matches)
          problems_.push_back("verified, but the runtime (" + std::string(callFormName(form)) + ", " + regime.name +
                              ") gets: " + r.detail);
      }
    static constexpr std::pair<runtime::DataType, runtime::ReduceOp> kTypeOps[] = {
        {runtime::DataType::F32, runtime::ReduceOp::Max},  {runtime::DataType::F16, runtime::ReduceOp::Sum},
        {runtime::DataType::BF16, runtime::ReduceOp::Min}, {runtime::DataType::F64, runtime::ReduceOp::Prod},
        {runtime::DataType::U8, runtime::ReduceOp::Sum},   {runtime::DataType::I64, runtime::ReduceOp::Max}};
    const auto [dtype, op] = kTypeOps[seed_ % std::size(kTypeOps)];
    const RuntimeRun typed = call(*p, regimes().front(), forms().front(), dtype, op);
    if (typed.outcome != RunOutcome::Matches)
      problems_.push_back("verified, but the runtime with another type gets: " + typed.detail);
    if (std::string s = simulation(kVerifierConfigurations); !s.empty())
      problems_.push_back("verified, but simulate fails: " + s);
    if (report_.deadlock && report_.deadlock->minimumSlots) checkMinimumSlots(*p, *report_.deadlock->minimumSlots);
  }

  // verify's smallest deadlock-free slot count m: the runtime completes the configurations with m
  // transfers in flight per connection (one of them when m is 1), and deadlocks in one with m - 1.
  void checkMinimumSlots(const runtime::ExecutableProgram& p, int32_t m) {
    if (m == 1) {
      const auto [tiles, maxAllowed] = kVerifierConfigurations[seed_ % kVerifierConfigurations.size()];
      const Regime one = regimeOf(tiles, maxAllowed, 1);
      if (const RuntimeRun r = call(p, one, forms().front()); r.outcome != RunOutcome::Matches)
        problems_.push_back("verify says 1 slot suffices, but the runtime (" + one.name + ") gets: " + r.detail);
      return;
    }
    ++tally_.minimumSlotsChecked;
    bool deadlocks = false;
    for (const auto& [tiles, maxAllowed] : kVerifierConfigurations) {
      const Regime enough = regimeOf(tiles, maxAllowed, m), fewer = regimeOf(tiles, maxAllowed, m - 1);
      if (const RuntimeRun r = call(p, enough, forms().front()); r.outcome != RunOutcome::Matches)
        problems_.push_back("verify says " + std::to_string(m) + " slots suffice, but the runtime (" + enough.name +
                            ") gets: " + r.detail);
      const RuntimeRun r = call(p, fewer, forms().front());
      if (r.outcome == RunOutcome::Deadlock)
        deadlocks = true;
      else if (r.outcome != RunOutcome::Matches)
        problems_.push_back("the runtime (" + fewer.name + ") neither finishes nor deadlocks: " + r.detail);
    }
    if (!deadlocks)
      problems_.push_back("verify says " + std::to_string(m) +
                          " slots are needed, but the runtime completes every configuration with " +
                          std::to_string(m - 1));
  }

  void checkViolation() {
    std::vector<const verify::Violation*> deadlocks, races, wrong, others;
    for (const verify::Violation& v : report_.violations) {
      if (v.severity != verify::Severity::Error) continue;
      if (inRuleFamily(v, "deadlock."))
        deadlocks.push_back(&v);
      else if (inRuleFamily(v, "race."))
        races.push_back(&v);
      else if (inRuleFamily(v, "postcondition."))
        wrong.push_back(&v);
      else
        others.push_back(&v);
      for (const std::string& p : evidenceProblems(algorithm(), collective(), v))
        problems_.push_back(v.rule + " (" + v.message + "): " + p);
    }
    if (report_.smt) checkWitnesses(!wrong.empty(), !deadlocks.empty());
    if (!deadlocks.empty())
      ++tally_.deadlock;
    else if (!others.empty())
      ++tally_.otherViolation, ++tally_.otherRules[others.front()->rule];
    else if (!wrong.empty())
      ++tally_.postcondition;
    else
      ++tally_.race;

    const std::optional<runtime::ExecutableProgram> p =
        load(others.empty() ? "verify reports only races, wrong chunks or deadlocks" : "");
    if (!deadlocks.empty()) {
      const bool diverge = std::any_of(others.begin(), others.end(),
                                       [](const verify::Violation* v) { return inRuleFamily(*v, "connections."); });
      if (p) checkDeadlock(*p, *deadlocks.front(), diverge);
      return;
    }
    if (!others.empty()) return;
    if (std::string s = simulation(kVerifierConfigurations); !s.empty())
      problems_.push_back("no deadlock found, but simulate fails: " + s);
    if (!p) return;
    if (races.empty()) {
      checkWrongChunks(*p, wrong);
      return;
    }
    const RuntimeRun r = call(*p, regimes().front(), forms().front());
    if (r.outcome != RunOutcome::Matches && r.outcome != RunOutcome::WrongResult)
      problems_.push_back("a race but no deadlock, yet the runtime gets: " + r.detail);
  }

  // Under --engine both, a wrong result and a deadlock each come with a replayed schedule, unless
  // the SMT engine found no answer within its limits (then the simulation's evidence stands alone).
  void checkWitnesses(bool wrongResult, bool deadlock) {
    ++tally_.smtChecked;
    auto answered = [&](const std::string& check) {
      return std::any_of(report_.smt->queries.begin(), report_.smt->queries.end(),
                         [&](const verify::SmtQueryRecord& q) { return q.check == check && q.answer == "sat"; });
    };
    wrongResult = wrongResult && answered("postcondition");
    deadlock = deadlock && answered("deadlock");
    auto has = [&](const std::string& kind) {
      return std::any_of(report_.smt->witnesses.begin(), report_.smt->witnesses.end(), [&](const verify::Witness& w) {
        return w.kind == kind && !w.replay.empty() &&  // the schedule may be empty: stuck from the start
               (kind == "deadlock" ? !w.blocked.empty() : !w.outcome.empty());
      });
    };
    if (wrongResult && !has("wrong-output"))
      problems_.push_back("wrong chunks, but no replayed SMT schedule that shows one");
    if (deadlock && !has("deadlock")) problems_.push_back("a deadlock, but no replayed SMT schedule that ends in it");
  }

  // The runtime detects a deadlock exactly, unless paired transfers disagree (`diverge`): then its
  // FIFO state is undefined (msccl-ir.md §2) and only the watchdog's time limit stops it.
  void checkDeadlock(const runtime::ExecutableProgram& p, const verify::Violation& v, bool diverge) {
    const std::optional<DeadlockConfiguration> c = deadlockConfigurationOf(v);
    if (!c) return;  // reported as missing evidence
    const Regime regime = regimeOf(c->tiles, c->maxAllowedCount, c->slots);
    const RuntimeRun r = call(p, regime, forms().front(), runtime::DataType::I32, runtime::ReduceOp::Sum,
                              std::chrono::milliseconds(diverge ? 2000 : 10000));
    if (r.outcome == RunOutcome::Deadlock)
      ++tally_.deadlocksSeen;
    else if (!diverge || r.outcome != RunOutcome::TimedOut)
      problems_.push_back(v.rule + " with " + regime.name + ", but the runtime gets: " + r.detail);
    bool violation = false;
    const std::string s = simulation({{c->tiles, c->maxAllowedCount}}, &violation);
    if (!violation)
      problems_.push_back(v.rule + " with " + regime.name + ", but simulate " +
                          (s.empty() ? "finishes" : "throws " + s));
  }

  // The runtime must get exactly the reported chunks wrong (those with uninitialised data may come
  // out right: the runtime zeroes scratch).
  void checkWrongChunks(const runtime::ExecutableProgram& p, const std::vector<const verify::Violation*>& wrong) {
    for (semantics::CallForm form : forms()) {
      std::set<std::pair<int32_t, int32_t>> surely, maybe;
      for (const verify::Violation* v : wrong)
        if (const std::optional<WrongChunk> w = wrongChunkOf(*v); w && w->form == form)
          (w->uninitialised ? maybe : surely).insert({w->rank, w->chunk});
      for (const Regime& regime : {regimes()[0], regimes()[5]}) {
        const RuntimeRun r = call(p, regime, form);
        const std::string where = std::string(callFormName(form)) + ", " + regime.name;
        if (r.outcome != RunOutcome::Matches && r.outcome != RunOutcome::WrongResult) {
          problems_.push_back("wrong chunks but no deadlock, yet the runtime (" + where + ") gets: " + r.detail);
          continue;
        }
        const int64_t elems = regime.chunkElems;
        const int64_t least = static_cast<int64_t>(surely.size()) * elems;
        const int64_t most = static_cast<int64_t>(surely.size() + maybe.size()) * elems;
        if (r.check.mismatches < least || r.check.mismatches > most)
          problems_.push_back("verify reports " + std::to_string(surely.size() + maybe.size()) + " wrong chunks (" +
                              std::to_string(maybe.size()) + " with uninitialised data) of " + std::to_string(elems) +
                              " elements in the " + std::string(callFormName(form)) + " call, the runtime (" +
                              regime.name + ") gets " + std::to_string(r.check.mismatches) +
                              " wrong elements: " + r.detail);
        for (const runtime::Mismatch& m : r.check.first) {
          const std::pair<int32_t, int32_t> chunk{m.rank, static_cast<int32_t>(m.index / elems)};
          if (!surely.count(chunk) && !maybe.count(chunk))
            problems_.push_back("the runtime (" + where + ") gets rank " + std::to_string(m.rank) + " output chunk " +
                                std::to_string(chunk.second) + " wrong, which verify does not report");
        }
        if (r.outcome == RunOutcome::WrongResult) ++tally_.wrongResultsSeen;
      }
    }
  }

  uint64_t seed_;
  Tally& tally_;
  GeneratedProgram generated_;
  ir::ReadResult read_;
  verify::FileReport report_;
  std::vector<std::string> problems_;
};

// Checks programs first..first+count-1; returns the tally.
Tally checkSeeds(uint64_t first, int count) {
  Tally tally;
  checkSeedBlock(first, count, "replay one seed",
                 [&](uint64_t seed, std::string& details) { return ProgramCheck(seed, tally).run(details); });
  std::cout << "seeds " << first << ".." << first + static_cast<uint64_t>(count) - 1 << ": " << tally.describe()
            << "\n";
  return tally;
}

// Enough of each outcome that no branch of the property is tested on nothing. The shares are
// calibrated for full blocks: a shorter run (the sanitizer pass's 200 programs) can miss a rare
// outcome such as a race-only program by chance, so it checks agreement only.
void checkShares(const Tally& t) {
  if (t.programs < kDefaultProgramsPerBlock) return;
  INFO(t.describe());
  CHECK(t.verified * 100 >= t.programs * 30);
  CHECK(t.postcondition * 100 >= t.programs * 3);
  CHECK(t.race * 200 >= t.programs * 1);
  CHECK(t.deadlock * 100 >= t.programs * 2);
  CHECK(t.wrongResultsSeen > 0);
  CHECK(t.deadlocksSeen > 0);
  CHECK(t.smtChecked > 0);
  CHECK(t.minimumSlotsChecked > 0);
  for (const char* feature : {"'s'",
                              "'r'",
                              "'rcs'",
                              "'rrs'",
                              "'rrc'",
                              "'rrcs'",
                              "'cpy'",
                              "'re'",
                              "'nop'",
                              "fused re chain",
                              "re chain ended by hasdep, cnt changing",
                              "gpu elements out of id order",
                              "in place",
                              "out of place",
                              "both call forms",
                              "LL",
                              "LL128",
                              "Simple",
                              "2 ranks",
                              "5 ranks"}) {
    INFO(feature);
    CHECK(t.verifiedWith.count(feature) == 1);
  }
}

}  // namespace

TEST_CASE("differential: seeds 1000000..") { checkShares(checkSeeds(1'000'000, programsPerBlock())); }
TEST_CASE("differential: seeds 2000000..") { checkShares(checkSeeds(2'000'000, programsPerBlock())); }
TEST_CASE("differential: seeds 3000000..") { checkShares(checkSeeds(3'000'000, programsPerBlock())); }
TEST_CASE("differential: seeds 4000000..") { checkShares(checkSeeds(4'000'000, programsPerBlock())); }

TEST_CASE("replay one seed", "[.]") {
  const char* seed = std::getenv("CCFORGE_PROPERTY_SEED");
  REQUIRE(seed != nullptr);
  Tally tally;
  std::string details;
  const std::vector<std::string> problems = ProgramCheck(std::strtoull(seed, nullptr, 10), tally).run(details);
  std::cout << details << tally.describe() << "\n";
  for (const std::string& p : problems) std::cout << "PROBLEM: " << p << "\n";
  CHECK(problems.empty());
}
