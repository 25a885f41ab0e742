// The SMT encoding of one instance (C, S, R) in SCCL's k-synchronous model (docs/synth.md):
//   time[c][n]   integer, the step after which rank n holds chunk c (0 at its source, S+1: never);
//   send[c][l]   Boolean, chunk c crosses logical link l = (a, b), in step time[c][b];
//   rounds[s]    the rounds of step s (one of 1..R-S+1, as exclusive Booleans), summing to R.
// A send needs time[c][a] < time[c][b] <= S (integer difference logic); a rank that holds a
// chunk it did not start with received it over some link; in every step each physical link e
// carries at most capacity(e) * k chunks when step s has k rounds, counted as a sum of ite(b, 1, 0). Times are
// bounded below by hop distances, and pairs that cannot matter (a link whose sender cannot hold
// the chunk in time) are left out before the solver sees them.
#pragma once

#include <optional>
#include <vector>

#include "synth/sccl/problem.hpp"
#include "synth/sccl/schedule.hpp"
#include "smt/query.hpp"

namespace ccforge::synth::sccl {

// Orbits of (chunk, rank) and (chunk, logical link) pairs under a group of symmetries: an
// encoding given them looks only for schedules the group maps onto themselves, with one
// variable per orbit (the representative is the orbit's least pair, chunk-major).
struct Orbits {
  std::vector<int32_t> time;  // [chunk * ranks + rank] -> representative index
  std::vector<int32_t> send;  // [chunk * links + link] -> representative index
};

class Encoding {
 public:
  // rounds: nullopt leaves the total free (each step still has at least one round).
  Encoding(const Problem& problem, int32_t steps, std::optional<int32_t> rounds, const Orbits* invariant = nullptr);

  smt::Query& query() { return query_; }
  const smt::Query& query() const { return query_; }
  // Reads a model (values of query().wanted) as a schedule: one sender per (chunk, rank).
  Schedule schedule(const std::vector<int64_t>& model) const;

  // Time variables (constants where fixed) in a fixed order, for symmetry breaking:
  // timeTerm(c, n) for chunk c at rank n.
  smt::Term timeTerm(int32_t chunk, int32_t rank) const;

 private:
  void declare();
  void encodeSends();
  void encodeBandwidth(std::optional<int32_t> rounds);
  int32_t freeRoundsLimit() const;

  const Problem& problem_;
  int32_t steps_;
  const Orbits* invariant_;
  smt::Query query_;
  std::vector<std::vector<smt::Term>> time_;                 // [chunk][rank]
  std::vector<std::vector<std::optional<smt::Term>>> send_;  // [chunk][logical link]
  std::vector<smt::Term> rounds_;
  // Decoding: positions in query_.wanted.
  size_t firstRound_ = 0;
  std::vector<std::pair<int32_t, int32_t>> wantedSends_;  // (chunk, link) in wanted order after the rounds
};

}  // namespace ccforge::synth::sccl
