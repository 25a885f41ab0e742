// SMT benchmarks (docs/benchmarks.md, "SMT"): not part of the test suite.
//   smt_bench deadlock [RANKS CHANNELS SLOTS PROTOCOL]   encoding 1 on a generated ring allreduce
//   smt_bench corpus FILE...                             --engine smt per file, with each solver
// Times are wall clock and CPU (this process) per solver call; the machine's load is printed.
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "../../tests/verify/fixture_expectation.hpp"
#include "idl_baselines.hpp"
#include "ring_allreduce.hpp"
#include "ir/names.hpp"
#include "verify/kahn_simulation.hpp"
#include "verify/step_ref.hpp"
#include "verify/smt/deadlock_check.hpp"
#include "verify/smt/deadlock_encoding.hpp"
#include "smt/query_runner.hpp"
#include "verify/smt/replay.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;

namespace {

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double wallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string load() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one;
}

int deadlock(int32_t ranks, int32_t channels, int32_t slots, ir::Protocol protocol) {
  const ir::Algorithm algo = bench::ringAllReduce(ranks, channels, protocol);
  const semantics::LoadedProgram index = *semantics::loadProgram(algo).program;
  const verify::SimulationConfig config{1, semantics::kMaxStepCount, slots};

  double w = wallSeconds();
  const verify::SimulationResult sim = verify::simulate(index, protocol, config);
  const double simSeconds = wallSeconds() - w;
  w = wallSeconds();
  verify::smt::UnitEventGraph graph(index, protocol, config);
  verify::smt::DeadlockEncoding encoding(graph);
  const double buildSeconds = wallSeconds() - w;
  fmt::print("ring allreduce {} ranks x {} channels, {}: {} ops, {} FIFO-unit events, {} terms; slots={} (load {})\n",
             ranks, channels, ir::protocolName(protocol), index.stepCount(), graph.size(),
             encoding.query().terms.size(), slots, load());
  fmt::print("| engine | answer | wall s | CPU s |\n|---|---|---|---|\n");
  fmt::print("| simulation | {} | {:.3f} | |\n", sim.completed ? "deadlock-free" : "deadlock", simSeconds);
  fmt::print("| encoding (build) | | {:.2f} | |\n", buildSeconds);
  auto run = [&](const char* encodingName, const smt::Query& query, bool witness, uint32_t timeoutMs) {
    for (smt::SolverKind kind : {smt::SolverKind::Z3, smt::SolverKind::Cvc5}) {
      smt::RunSettings settings;
      settings.solvers = {kind};
      settings.limits.timeoutMs = timeoutMs;
      smt::QueryRunner runner(settings);
      const double cpu = cpuSeconds(), start = wallSeconds();
      const smt::QueryOutcome out = runner.run(query);
      const double wall = wallSeconds() - start, used = cpuSeconds() - cpu;
      std::string answer(smt::answerName(out.answer));
      if (witness && out.answer == smt::Answer::Sat) {
        const verify::smt::DeadlockWitness d = encoding.witness(out.model());
        const verify::smt::UnitReplay replay =
            verify::smt::replayUnitSchedule(index, protocol, config, d.witness.schedule);
        answer += fmt::format(", witness of {} events {}", d.witness.schedule.size(),
                              replay.ok ? "replays" : "DOES NOT REPLAY: " + replay.error);
      }
      if (!out.reason.empty()) answer += " (" + out.reason + ")";
      fmt::print("| {} {} | {} | {:.2f} | {:.2f} |\n", encodingName, smt::solverName(kind), answer, wall, used);
    }
  };
  run("stuck state (encoding 1)", encoding.query(), true, 600'000);
  for (smt::SolverKind kind : {smt::SolverKind::Z3, smt::SolverKind::Cvc5}) {
    smt::RunSettings settings;
    settings.solvers = {kind};
    smt::QueryRunner runner(settings);
    verify::smt::DeadlockQueries queries(index, runner);
    const double cpu = cpuSeconds(), start = wallSeconds();
    const verify::smt::SmtDeadlockResult r = verify::smt::checkDeadlockSmt(index, slots, runner, queries);
    const double wall = wallSeconds() - start, used = cpuSeconds() - cpu;
    fmt::print("| whole deadlock check (encodings 1, 3, 4: {} queries) {} | {}; {}; {} | {:.2f} | {:.2f} |\n",
               queries.records().size(), smt::solverName(kind), verify::checkStatusName(r.status), r.minimumSlotsProof,
               r.parametric.text, wall, used);
  }
  run("IDL acyclicity (baseline)", bench::acyclicityQuery(graph), false, 300'000);
  run("timestamped stuck state (IDL)", bench::timestampedStuckStateQuery(graph), false, 300'000);
  return 0;
}

// A fixture's own arguments (its ccforge-expect comment); the msccl-tools samples, which state
// none, under the legacy profile their header follows.
verify::Options optionsFor(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  if (first == "<!-- ccforge-expect") return test::readExpectation(file).options(file);
  verify::Options o;
  o.profile = semantics::legacyProfile();
  return o;
}

int corpus(int argc, char** argv) {
  fmt::print("| file | steps | z3 queries | z3 wall s | cvc5 wall s | verdict |\n|---|---|---|---|---|---|\n");
  for (int i = 2; i < argc; ++i) {
    std::string row;
    double seconds[2] = {0, 0};
    size_t queries = 0, steps = 0;
    std::string verdict;
    for (int s = 0; s < 2; ++s) {
      verify::Options o = optionsFor(argv[i]);
      o.engine = verify::Engine::Smt;
      o.smt.solvers = s == 0 ? verify::SmtSolvers::Z3 : verify::SmtSolvers::Cvc5;
      const double w = wallSeconds();
      const verify::FileReport r = verify::verifyFile(argv[i], o);
      seconds[s] = wallSeconds() - w;
      if (s == 0) {
        queries = r.smt ? r.smt->queries.size() : 0;
        steps = r.program ? r.program->steps : 0;
        verdict = verify::verdictName(r.verdict);
      }
    }
    std::string name = argv[i];
    if (auto p = name.find("fixtures/"); p != std::string::npos) name = name.substr(p + 9);
    fmt::print("| {} | {} | {} | {:.2f} | {:.2f} | {} |\n", name, steps, queries, seconds[0], seconds[1], verdict);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "deadlock") {
    const int32_t ranks = argc > 2 ? std::stoi(argv[2]) : 64, channels = argc > 3 ? std::stoi(argv[3]) : 2;
    const int32_t slots = argc > 4 ? std::stoi(argv[4]) : 2;
    const auto protocol = argc > 5 ? ir::parseProtocol(argv[5]) : std::optional<ir::Protocol>(ir::Protocol::Simple);
    if (!protocol) {
      std::cerr << "smt_bench: unknown protocol\n";
      return 1;
    }
    return deadlock(ranks, channels, slots, *protocol);
  }
  if (mode == "corpus") return corpus(argc, argv);
  std::cerr << "usage: smt_bench deadlock [RANKS CHANNELS SLOTS PROTOCOL] | corpus FILE...\n";
  return 1;
}
