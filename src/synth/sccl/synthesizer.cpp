#include "synth/sccl/synthesizer.hpp"

#include <algorithm>
#include <cmath>

#include "base/limits.hpp"
#include "synth/sccl/encoding.hpp"
#include "synth/sccl/symmetry.hpp"

namespace ccforge::synth::sccl {
namespace {

// The bound on the method's allreduce instances (C, 2S, 2R), both phases (C, S, R): twice the
// larger of the reducescatter and allgather bounds (the bounds command's allreduce row adds the
// two instead: phases of different (C,S,R)).
CollectiveBound allReduceBound(const topo::Topology& topology) {
  const CollectiveBound rs = collectiveBound(topology, semantics::CollectiveType::ReduceScatter);
  const CollectiveBound ag = collectiveBound(topology, semantics::CollectiveType::AllGather);
  CollectiveBound b;
  b.collective = semantics::CollectiveType::AllReduce;
  b.stepsLowerBound = 2 * std::max(rs.stepsLowerBound, ag.stepsLowerBound);
  b.roundsPerChunkLowerBound = 2 * std::max(rs.roundsPerChunkLowerBound, ag.roundsPerChunkLowerBound);
  b.algbwUpperBoundGBps = std::min(rs.algbwUpperBoundGBps, ag.algbwUpperBoundGBps) / 2;
  b.method = "reducescatter then allgather: twice the larger of their bounds";
  return b;
}

std::string joined(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a + b;
  return a + ", " + b;
}

// Pads the last step so the schedule has `rounds` rounds (more rounds only loosen bandwidth).
void padRounds(Schedule& s, int32_t rounds) { s.roundsPerStep.back() += rounds - s.rounds(); }

}  // namespace

std::string_view verdictName(Verdict v) {
  switch (v) {
    case Verdict::Sat: return "sat";
    case Verdict::Unsat: return "unsat";
    case Verdict::Unknown: return "unknown";
    case Verdict::Pruned: return "pruned";
  }
  return "unknown";
}

Synthesizer::Synthesizer(const topo::Topology& topology, semantics::CollectiveType collective, int32_t root,
                         SynthOptions options)
    : topology_(topology),
      collective_(collective),
      root_(isRooted(collective) ? root : 0),
      options_(std::move(options)),
      solver_(smt::makeSolver(options_.solver)),
      start_(std::chrono::steady_clock::now()) {
  if (collective == semantics::CollectiveType::AllReduce) {
    bound_ = allReduceBound(topology);
  } else {
    makeProblem(topology, collective, root_, chunkStep());  // rejects unsupported requests first
    bound_ = collectiveBound(topology, collective, root_);
  }
  if (options_.symmetryBreaking) group_ = topo::automorphisms(topology, topo::Weighting::Weighted);
}

double Synthesizer::secondsLeft() const {
  const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return options_.totalTimeoutSeconds - used;
}

const Problem& Synthesizer::problem(int32_t chunks, semantics::CollectiveType phase) {
  auto it = problems_.find({chunks, phase});
  if (it == problems_.end())
    it = problems_.emplace(std::pair{chunks, phase}, makeProblem(topology_, phase, root_, chunks)).first;
  return it->second;
}

bool Synthesizer::pruned(int32_t chunks, int32_t steps, int32_t rounds, std::string& why) const {
  if (steps < bound_.stepsLowerBound) {
    why = "fewer steps than the lower bound " + std::to_string(bound_.stepsLowerBound);
    return true;
  }
  const auto [num, den] = roundsPerChunk(collective_, ranks(), chunks, rounds);
  const topo::Rational ratio(num, den);
  if (ratio < bound_.roundsPerChunkLowerBound) {
    why = "rounds per chunk " + topo::toString(ratio) + " below the lower bound " +
          topo::toString(bound_.roundsPerChunkLowerBound);
    return true;
  }
  return false;
}

InstanceResult Synthesizer::record(InstanceResult r) {
  history_.push_back(r);
  if (options_.progress) options_.progress(r);
  return r;
}

smt::SolverResult Synthesizer::check(const smt::Query& query, double seconds) const {
  if (std::any_of(query.assertions.begin(), query.assertions.end(),
                  [&](smt::Term t) { return query.terms.isFalse(t); })) {
    smt::SolverResult decided;
    decided.answer = smt::Answer::Unsat;
    return decided;
  }
  smt::Limits limits;
  limits.timeoutMs = static_cast<uint32_t>(std::ceil(seconds * 1000));
  if (options_.solver == smt::SolverKind::Z3) limits.rlimit = kFreshContextRlimit;
  return solver_->check(query, limits);
}

InstanceResult Synthesizer::solve(int32_t chunks, int32_t steps, std::optional<int32_t> rounds) {
  if (steps < 1) throw std::invalid_argument("the number of steps must be at least 1, got " + std::to_string(steps));
  if (rounds && *rounds < steps)
    throw std::invalid_argument("every step has at least one round: rounds (" + std::to_string(*rounds) +
                                ") must be at least steps (" + std::to_string(steps) + ")");
  if (steps % phases() != 0 || (rounds && *rounds % phases() != 0))
    throw std::invalid_argument(
        "allreduce instances are (C, 2S, 2R): reducescatter and allgather (C, S, R); "
        "steps and rounds must be even");
  if (options_.starting) options_.starting(chunks, steps, rounds);
  const Problem& p = collective_ == semantics::CollectiveType::AllReduce
                         ? problem(chunks, semantics::CollectiveType::ReduceScatter)
                         : problem(chunks);  // validates C
  InstanceResult r{chunks, steps, rounds.value_or(0), Verdict::Unknown, 0, "", std::nullopt, std::nullopt, ""};
  if (rounds && pruned(chunks, steps, *rounds, r.note)) {
    r.verdict = Verdict::Pruned;
    return record(r);
  }
  if (!rounds && steps < bound_.stepsLowerBound) {
    pruned(chunks, steps, steps, r.note);
    r.verdict = Verdict::Pruned;
    return record(r);
  }
  const int64_t work = instanceWork(chunks, steps, rounds);
  if (work > base::limits::kMaxSmtInstanceWork) {
    r.note = "C x R x GPUs = " + std::to_string(work) + " is over ccforge's instance limit of " +
             std::to_string(base::limits::kMaxSmtInstanceWork) + " (docs/limits.md)";
    return record(r);
  }
  const double left = secondsLeft();
  if (left <= 0) {
    r.note = "overall time limit reached";
    return record(r);
  }
  const double limit = std::min(options_.instanceTimeoutSeconds, left);
  r = collective_ == semantics::CollectiveType::AllReduce ? solveAllReduce(chunks, steps, rounds, limit)
                                                          : decide(p, chunks, steps, rounds, limit);
  if (!rounds) r.note = joined(r.note, "rounds left free");
  return record(r);
}

InstanceResult Synthesizer::solveAllReduce(int32_t chunks, int32_t steps, std::optional<int32_t> rounds, double limit) {
  const int32_t half = steps / 2;
  const std::optional<int32_t> halfRounds = rounds ? std::optional<int32_t>(*rounds / 2) : std::nullopt;
  InstanceResult rs =
      decide(problem(chunks, semantics::CollectiveType::ReduceScatter), chunks, half, halfRounds, limit);
  InstanceResult r{chunks, steps, rounds.value_or(0), rs.verdict, rs.seconds, "", std::nullopt, std::nullopt, ""};
  if (!rs.note.empty()) r.note = "reducescatter " + rs.note;
  if (rs.verdict != Verdict::Sat) return r;
  const double left = std::min(limit, secondsLeft());
  if (left <= 0) {
    r.verdict = Verdict::Unknown;
    r.note = joined(r.note, "overall time limit reached before the allgather phase");
    return r;
  }
  InstanceResult ag = decide(problem(chunks, semantics::CollectiveType::AllGather), chunks, half, halfRounds, left);
  r.verdict = ag.verdict;
  r.seconds += ag.seconds;
  if (!ag.note.empty()) r.note = joined(r.note, "allgather " + ag.note);
  if (ag.verdict != Verdict::Sat) return r;
  const int32_t phaseRounds = std::max(rs.rounds, ag.rounds);  // free rounds: the phases may differ
  padRounds(*rs.schedule, phaseRounds);
  padRounds(*ag.schedule, phaseRounds);
  r.rounds = 2 * phaseRounds;
  r.schedule = std::move(rs.schedule);
  r.allgatherPhase = std::move(ag.schedule);
  return r;
}

InstanceResult Synthesizer::decide(const Problem& p, int32_t chunks, int32_t steps, std::optional<int32_t> rounds,
                                   double limit) {
  InstanceResult r{chunks, steps, rounds.value_or(0), Verdict::Unknown, 0, "", std::nullopt, std::nullopt, ""};
  std::vector<ProblemSymmetry> symmetries;
  if (options_.symmetryBreaking) symmetries = problemSymmetries(topology_, group_, p);
  smt::SolverResult answer;
  Orbits orbits;
  std::optional<Encoding> encoding;
  // Symmetric schedules first: a smaller search that often finds one at once. Its unsat says
  // nothing about asymmetric schedules, so then the full encoding decides.
  if (!symmetries.empty()) {
    orbits = invariantOrbits(p, symmetries);
    encoding.emplace(p, steps, rounds, &orbits);
    answer = check(encoding->query(), limit * kSymmetricShare);
    if (answer.answer != smt::Answer::Sat) {
      const double spent = answer.seconds;
      encoding.emplace(p, steps, rounds);
      breakSymmetries(*encoding, p, symmetries);
      breakPieceSymmetry(*encoding, p);
      answer = check(encoding->query(), std::max(0.001, limit - spent));
      answer.seconds += spent;
    } else {
      r.note = "symmetric";
    }
  } else {
    encoding.emplace(p, steps, rounds);
    if (options_.symmetryBreaking) breakPieceSymmetry(*encoding, p);
    answer = check(encoding->query(), limit);
  }
  r.seconds = answer.seconds;
  switch (answer.answer) {
    case smt::Answer::Sat:
      r.verdict = Verdict::Sat;
      r.schedule = encoding->schedule(answer.model);
      r.rounds = r.schedule->rounds();
      break;
    case smt::Answer::Unsat: r.verdict = Verdict::Unsat; break;
    case smt::Answer::Unknown: r.note = answer.reason; break;
    case smt::Answer::Error: throw std::runtime_error("solver error: " + answer.reason);
  }
  return r;
}

}  // namespace ccforge::synth::sccl
