// Decides single instances (C, S, R) of one collective on one topology: instances the exact
// lower bounds rule out are pruned without a solver call; the others are encoded (with
// symmetry breaking) and sent to Z3 or cvc5 under the per-instance and overall time limits.
// Allreduce is reducescatter then allgather: its instance (C, 2S, 2R) is sat when both the
// reducescatter and the allgather instance (C, S, R) are; both are asked.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "topology/automorphisms.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/sccl/problem.hpp"
#include "synth/sccl/schedule.hpp"
#include "smt/query.hpp"
#include "smt/solver.hpp"

namespace ccforge::synth::sccl {

enum class Verdict : uint8_t { Sat, Unsat, Unknown, Pruned };
std::string_view verdictName(Verdict v);

struct InstanceResult {
  int32_t chunks = 0, steps = 0, rounds = 0;
  Verdict verdict = Verdict::Unknown;
  double seconds = 0;
  std::string note;                        // why pruned or unknown; "rounds left free" for a free-rounds query
  std::optional<Schedule> schedule;        // sat only; allreduce: the reducescatter phase
  std::optional<Schedule> allgatherPhase;  // allreduce, sat only
  std::string substituteFor;               // "(C,S,R)" of the frontier point this power-of-two instance stands in for
};

struct SynthOptions {
  smt::SolverKind solver = smt::SolverKind::Z3;
  double instanceTimeoutSeconds = 60;
  double totalTimeoutSeconds = 600;
  bool symmetryBreaking = true;
  // Called after every decided instance (progress on stderr).
  std::function<void(const InstanceResult&)> progress;
  // Called as an instance (C, S, R; R unset when left free) begins, before it is encoded.
  std::function<void(int32_t chunks, int32_t steps, std::optional<int32_t> rounds)> starting;
};

class Synthesizer {
 public:
  // Computes the bounds first: throws what collectiveBound throws (InputError for a topology
  // on which the collective cannot complete, std::invalid_argument for a bad request).
  Synthesizer(const topo::Topology& topology, semantics::CollectiveType collective, int32_t root, SynthOptions options);

  const CollectiveBound& bound() const { return bound_; }
  semantics::CollectiveType collective() const { return collective_; }
  int32_t ranks() const { return static_cast<int32_t>(topology_.gpus().size()); }
  const topo::Topology& topology() const { return topology_; }
  // The smallest C the collective allows and the step between legal values (alltoall: N).
  int32_t chunkStep() const { return collective_ == semantics::CollectiveType::AllToAll ? ranks() : 1; }
  // The step between legal S and R: 2 for allreduce (two phases of S steps, R rounds each).
  int32_t phases() const { return collective_ == semantics::CollectiveType::AllReduce ? 2 : 1; }
  // The problem solved for C: the collective's own; allreduce: the reducescatter or allgather phase.
  const Problem& problem(int32_t chunks, semantics::CollectiveType phase);
  const Problem& problem(int32_t chunks) { return problem(chunks, collective_); }

  // Throws std::invalid_argument for C that does not fit, R < S, or (allreduce) odd S or R.
  // rounds nullopt: free.
  InstanceResult solve(int32_t chunks, int32_t steps, std::optional<int32_t> rounds);
  // Whether the bounds rule the instance out; `why` says which.
  bool pruned(int32_t chunks, int32_t steps, int32_t rounds, std::string& why) const;
  // Encoding an instance (not interruptible by the solver's time limit) grows with C x R x GPUs:
  // past limits::kMaxSmtInstanceWork an instance is not encoded (unknown).
  int64_t instanceWork(int32_t chunks, int32_t steps, std::optional<int32_t> rounds) const {
    return int64_t{chunks} * std::max(rounds.value_or(steps), steps) * ranks();
  }
  bool outOfTime() const { return secondsLeft() <= 0; }
  double secondsLeft() const;

  const std::vector<InstanceResult>& history() const { return history_; }

 private:
  InstanceResult record(InstanceResult r);
  // Decides one instance of one solved problem (not pruned) within `limit` seconds.
  InstanceResult decide(const Problem& p, int32_t chunks, int32_t steps, std::optional<int32_t> rounds, double limit);
  InstanceResult solveAllReduce(int32_t chunks, int32_t steps, std::optional<int32_t> rounds, double limit);
  smt::SolverResult check(const smt::Query& query, double seconds) const;
  // Any resource limit makes the Z3 backend give a query a context of its own; earlier queries
  // left in a shared context made later ones up to 5x slower. This one is far above what the
  // time limits allow (a 12 s DGX-1 query used well under it); if it is ever reached, the
  // instance is reported unknown with that reason.
  static constexpr uint64_t kFreshContextRlimit = 4'000'000'000;
  // The share of an instance's time limit the search for symmetric schedules may use.
  static constexpr double kSymmetricShare = 0.5;

  topo::Topology topology_;
  semantics::CollectiveType collective_;
  int32_t root_;
  SynthOptions options_;
  CollectiveBound bound_;
  topo::AutomorphismGroup group_;
  std::map<std::pair<int32_t, semantics::CollectiveType>, Problem> problems_;
  std::unique_ptr<smt::Solver> solver_;
  std::chrono::steady_clock::time_point start_;
  std::vector<InstanceResult> history_;
};

}  // namespace ccforge::synth::sccl
