// Encoding 4: deadlock freedom for every number of tile iterations T (in the regime that has
// more than one, maxAllowedCount = 1).
//
// The T-iteration program's events are T copies of one iteration's, and every predecessor of an
// event of iteration t lies in iteration t - d for a fixed shift d >= 0 (program order from the
// previous iteration's last event, slots freed by receives of earlier iterations), provided every
// connection carries as many units per iteration in both directions and no dependency waits for
// the next iteration. Then a periodic schedule, time(e, t) = tau(e) + t * P, that orders every
// event after its predecessors is an inductive argument: tile 0 is ordered by tau, and if tiles
// before t are ordered, shifting by P orders tile t after everything it waits for (k-induction
// with k the largest shift). The query asks for tau with P fixed to (events per iteration + 1),
// which suffices whenever any period does (integer difference logic; its model is checked).
// No periodic schedule exists iff some wait cycle lies within one iteration, so a deadlock
// appears at some T: the counterexample iteration count is then found by checking T = 1, 2, ...
// If connections are unbalanced or a dependency waits for the next iteration, the argument does
// not apply and the same search looks for the counterexample.
#pragma once

#include <optional>
#include <string>

#include "verify/smt/deadlock_queries.hpp"

namespace ccforge::verify::smt {

struct ParametricResult {
  enum class Verdict { EveryTileCount, Counterexample, Inconclusive };
  Verdict verdict = Verdict::Inconclusive;
  std::string text;  // the argument, the counterexample, or why neither was found
  int32_t counterexampleTiles = 0;
  std::optional<ConfigurationAnswer> counterexample;
  std::string internalError;  // a certificate that does not check, a witness that does not replay
};

ParametricResult checkEveryTileCount(const semantics::LoadedProgram& index, int32_t slots,
                                     ccforge::smt::QueryRunner& runner, DeadlockQueries& queries);

}  // namespace ccforge::verify::smt
