#include "semantics/protocol.hpp"
#include "semantics/size_arithmetic.hpp"
#include "semantics/step_kinds.hpp"
#include "verify/smt/parametric.hpp"

#include <fmt/format.h>

namespace ccforge::verify::smt {
namespace {

constexpr int32_t kMaxTilesSearched = 8;

// tau(from) + shift * period < tau(to): `from` runs in iteration t + shift (shift <= 0) and `to` waits for it in t.
struct PeriodicEdge {
  uint32_t from = 0, to = 0;
  int32_t shift = 0;
};

struct PeriodicGraph {
  std::vector<std::string> names;  // one per event of an iteration
  std::vector<PeriodicEdge> edges;
  std::string notApplicable;  // why the periodic argument does not apply
  std::string tooLarge;       // why it was not built
};

// Units per iteration each side of every connection moves; empty if they all balance.
std::string unbalancedConnection(const semantics::LoadedProgram& index, int32_t transferUnits,
                                 std::vector<int64_t>& unitsPerIteration) {
  const size_t nconn = index.connections().size();
  std::vector<int64_t> sent(nconn, 0), received(nconn, 0);
  for (uint32_t s = 0; s < index.stepCount(); ++s) {
    const semantics::LoadedStep& st = index.step(s);
    const int32_t tb = index.tbOfStep(s);
    const int64_t units = static_cast<int64_t>(semantics::transfersOf(st.cnt, 1)) * transferUnits;
    if (semantics::sends(st.type) && index.sendConnection(tb) >= 0)
      sent[static_cast<size_t>(index.sendConnection(tb))] += units;
    if (semantics::receives(st.type) && index.recvConnection(tb) >= 0)
      received[static_cast<size_t>(index.recvConnection(tb))] += units;
  }
  for (size_t c = 0; c < nconn; ++c)
    if (sent[c] != received[c])
      return fmt::format("connection {} carries {} FIFO units per iteration from the sender but {} to the receiver",
                         index.connections()[c].describe(), sent[c], received[c]);
  unitsPerIteration = sent;
  return {};
}

PeriodicGraph periodicGraph(const semantics::LoadedProgram& index, int32_t slots) {
  PeriodicGraph out;
  const int32_t transferUnits = semantics::unitsPerTransfer(index.algorithm().proto);
  std::vector<int64_t> units;
  out.notApplicable = unbalancedConnection(index, transferUnits, units);
  if (!out.notApplicable.empty()) return out;
  // Unroll far enough that the last iteration waits on everything it does in the steady state.
  const int64_t capacity = static_cast<int64_t>(slots) * transferUnits;
  int64_t reach = 1;
  for (int64_t u : units)
    if (u > 0) reach = std::max(reach, semantics::ceilDiv(capacity, u));
  const auto tiles = static_cast<int32_t>(reach + 2);
  const verify::SimulationConfig config{tiles, 1, slots};
  if (const uint64_t events = countUnitEvents(index, index.algorithm().proto, config); events > kMaxUnitEvents) {
    out.tooLarge = fmt::format("{} iterations have {} FIFO-unit events, more than the {} the encoding builds", tiles,
                               events, kMaxUnitEvents);
    return out;
  }
  UnitEventGraph graph(index, index.algorithm().proto, config);
  const int32_t last = tiles - 1;

  std::vector<uint32_t> perTile(static_cast<size_t>(index.threadBlockCount())), firstId(perTile.size());
  uint32_t ids = 0;
  for (int32_t tb = 0; tb < index.threadBlockCount(); ++tb) {
    perTile[static_cast<size_t>(tb)] = (graph.endEvent(tb) - graph.firstEvent(tb)) / static_cast<uint32_t>(tiles);
    firstId[static_cast<size_t>(tb)] = ids;
    ids += perTile[static_cast<size_t>(tb)];
  }
  auto idOf = [&](uint32_t e) {
    const UnitEvent& ev = graph.event(e);
    const auto tb = static_cast<size_t>(ev.tb);
    return firstId[tb] + (e - graph.firstEvent(ev.tb)) % perTile[tb];
  };
  for (int32_t tb = 0; tb < index.threadBlockCount(); ++tb) {
    const uint32_t n = perTile[static_cast<size_t>(tb)];
    const uint32_t begin = graph.firstEvent(tb) + static_cast<uint32_t>(last) * n;
    for (uint32_t e = begin; e < begin + n; ++e) {
      const UnitEvent& ev = graph.event(e);
      out.names.push_back(fmt::format("tau_r{}_b{}_s{}_u{}", index.rankOf(tb), index.idOf(tb), ev.step, ev.unit));
      out.edges.push_back({idOf(e - 1), idOf(e), e == begin ? -1 : 0});
      for (uint32_t p = 0; p < ev.predecessorCount; ++p) {
        const Predecessor& pred = graph.predecessors(ev)[p];
        if (pred.event == kMissing) {
          out.notApplicable = fmt::format(
              "rank {} tb {} step {} waits for {} that no iteration provides in time (a dependency on a later "
              "iteration, or one nobody publishes)",
              index.rankOf(tb), index.idOf(tb), ev.step,
              pred.kind == verify::WaitKind::Dependency ? "a flag" : "a FIFO unit");
          return out;
        }
        out.edges.push_back({idOf(pred.event), idOf(e), graph.event(pred.event).tile - last});
      }
    }
  }
  return out;
}

std::string checkCertificate(const PeriodicGraph& g, const std::vector<int64_t>& tau, int64_t period) {
  for (const PeriodicEdge& e : g.edges)
    if (!(tau[e.from] + e.shift * period < tau[e.to]))
      return fmt::format("the periodic schedule the solver returned violates {} (shift {}) -> {}", g.names[e.from],
                         e.shift, g.names[e.to]);
  return {};
}

}  // namespace

ParametricResult checkEveryTileCount(const semantics::LoadedProgram& index, int32_t slots,
                                     ccforge::smt::QueryRunner& runner, DeadlockQueries& queries) {
  ParametricResult result;
  PeriodicGraph g = periodicGraph(index, slots);
  if (!g.tooLarge.empty()) {
    result.text = "no answer: " + g.tooLarge;
    return result;
  }
  std::string whyNoArgument = g.notApplicable;
  if (whyNoArgument.empty()) {
    ccforge::smt::Query q;
    q.name = fmt::format("deadlock every tile count slots={} (periodic schedule)", slots);
    const auto period = static_cast<int64_t>(g.names.size()) + 1;
    std::vector<ccforge::smt::Term> tau;
    for (const std::string& name : g.names) {
      tau.push_back(q.terms.intVar(name));
      q.wanted.push_back(tau.back());
    }
    for (const PeriodicEdge& e : g.edges)
      q.require(q.terms.lt(q.terms.add({tau[e.from], q.terms.intConst(e.shift * period)}), tau[e.to]));
    ccforge::smt::QueryOutcome outcome = runner.run(q);
    queries.record("deadlock", outcome);
    if (outcome.disagreement) result.internalError = "the solvers disagree on the periodic schedule: " + outcome.reason;
    if (outcome.answer == ccforge::smt::Answer::Sat) {
      result.internalError = checkCertificate(g, outcome.model(), period);
      if (!result.internalError.empty()) {
        result.text = "the periodic schedule the solver returned does not check";
        return result;
      }
      result.verdict = ParametricResult::Verdict::EveryTileCount;
      result.text = fmt::format(
          "deadlock-free for every number of tile iterations: a periodic schedule with period {} orders the {} "
          "events of an iteration after everything they wait for (certificate checked)",
          period, g.names.size());
      return result;
    }
    if (outcome.answer != ccforge::smt::Answer::Unsat) {
      result.text = "no answer on a periodic schedule: " + outcome.reason;
      return result;
    }
    whyNoArgument = "no periodic schedule exists (a wait cycle within one iteration)";
  }
  for (int32_t tiles = 1; tiles <= kMaxTilesSearched; ++tiles) {
    const ConfigurationAnswer& a = queries.check(verify::SimulationConfig{tiles, 1, slots});
    if (a.outcome.answer == ccforge::smt::Answer::Sat && !a.replayError.empty()) {
      result.internalError = fmt::format("{}: the witness does not replay: {}", a.outcome.name, a.replayError);
      result.text = fmt::format("{}; the witness for {} tile iterations does not replay", whyNoArgument, tiles);
      return result;
    }
    if (a.outcome.answer == ccforge::smt::Answer::Sat) {
      result.verdict = ParametricResult::Verdict::Counterexample;
      result.counterexampleTiles = tiles;
      result.counterexample = a;
      result.text = fmt::format("deadlocks with {} tile iteration{} (maxAllowedCount=1): {}", tiles,
                                tiles == 1 ? "" : "s", whyNoArgument);
      return result;
    }
    if (a.outcome.answer != ccforge::smt::Answer::Unsat) {
      result.text = fmt::format("{}; no answer for {} tile iterations: {}", whyNoArgument, tiles, a.outcome.reason);
      return result;
    }
  }
  result.text = fmt::format("{}; and no deadlock with up to {} tile iterations", whyNoArgument, kMaxTilesSearched);
  return result;
}

}  // namespace ccforge::verify::smt
