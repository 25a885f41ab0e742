// Decides single instances (C, S, R) of one collective on one topology: instances the exact
// lower bounds rule out are pruned without a solver call; the others are encoded (with
// symmetry breaking) and sent to Z3 or cvc5 under the per-instance and overall time limits.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "semantics/topology/automorphisms.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/sccl/problem.hpp"
#include "synth/sccl/schedule.hpp"
#include "verify/smt/query.hpp"
#include "verify/smt/solver.hpp"

namespace ccforge::synth::sccl {

enum class Verdict : uint8_t { Sat, Unsat, Unknown, Pruned };
std::string_view verdictName(Verdict v);

struct InstanceResult {
  int32_t chunks = 0, steps = 0, rounds = 0;
  Verdict verdict = Verdict::Unknown;
  double seconds = 0;
  std::string note;  // why pruned or unknown; "rounds left free" for a free-rounds query
  std::optional<Schedule> schedule;  // sat only
};

struct SynthOptions {
  smt::SolverKind solver = smt::SolverKind::Z3;
  double instanceTimeoutSeconds = 60;
  double totalTimeoutSeconds = 600;
  bool symmetryBreaking = true;
  // Called after every decided instance (progress on stderr).
  std::function<void(const InstanceResult&)> progress;
};

class Synthesizer {
 public:
  // Computes the bounds first: throws what collectiveBound throws (InputError for a topology
  // on which the collective cannot complete, std::invalid_argument for a bad request).
  Synthesizer(const topo::Topology& topology, CollectiveType collective, int32_t root, SynthOptions options);

  const CollectiveBound& bound() const { return bound_; }
  CollectiveType collective() const { return collective_; }
  int32_t ranks() const { return static_cast<int32_t>(topology_.gpus().size()); }
  // The smallest C the collective allows and the step between legal values (alltoall: N).
  int32_t chunkStep() const { return collective_ == CollectiveType::AllToAll ? ranks() : 1; }
  const Problem& problem(int32_t chunks);

  // Throws std::invalid_argument for C that does not fit or R < S. rounds nullopt: free.
  InstanceResult solve(int32_t chunks, int32_t steps, std::optional<int32_t> rounds);
  // Whether the bounds rule the instance out; `why` says which.
  bool pruned(int32_t chunks, int32_t steps, int32_t rounds, std::string& why) const;
  bool outOfTime() const { return secondsLeft() <= 0; }
  double secondsLeft() const;

  const std::vector<InstanceResult>& history() const { return history_; }

 private:
  InstanceResult record(InstanceResult r);
  smt::SolverResult check(const smt::Query& query, double seconds) const;
  // Any resource limit makes the Z3 backend give a query a context of its own; earlier queries
  // left in a shared context made later ones up to 5x slower. This one is far above what the
  // time limits allow (a 12 s DGX-1 query used well under it); if it is ever reached, the
  // instance is reported unknown with that reason.
  static constexpr uint64_t kFreshContextRlimit = 4'000'000'000;
  // The share of an instance's time limit the search for symmetric schedules may use.
  static constexpr double kSymmetricShare = 0.5;

  topo::Topology topology_;
  CollectiveType collective_;
  int32_t root_;
  SynthOptions options_;
  CollectiveBound bound_;
  topo::AutomorphismGroup group_;
  std::map<int32_t, Problem> problems_;
  std::unique_ptr<smt::Solver> solver_;
  std::chrono::steady_clock::time_point start_;
  std::vector<InstanceResult> history_;
};

}  // namespace ccforge::synth::sccl
