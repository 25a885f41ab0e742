#include "idl_baselines.hpp"

#include <string>

namespace ccforge::bench {
namespace {

// Appended in two statements: GCC 12 warns falsely on "t" + std::to_string(e).
std::string name(const char* prefix, uint32_t e) {
  std::string s = prefix;
  s += std::to_string(e);
  return s;
}

}  // namespace

smt::Query acyclicityQuery(const verify::smt::UnitEventGraph& graph) {
  smt::Query q;
  q.name = "acyclicity " + graph.config().describe();
  std::vector<smt::Term> time;
  for (uint32_t e = 0; e < graph.size(); ++e) time.push_back(q.terms.intVar(name("t", e)));
  for (int32_t tb = 0; tb < graph.index().threadBlockCount(); ++tb)
    for (uint32_t e = graph.firstEvent(tb); e < graph.endEvent(tb); ++e) {
      if (e > graph.firstEvent(tb)) q.require(q.terms.lt(time[e - 1], time[e]));
      const verify::smt::UnitEvent& ev = graph.event(e);
      for (uint32_t p = 0; p < ev.predecessorCount; ++p) {
        const verify::smt::Predecessor& pred = graph.predecessors(ev)[p];
        q.require(pred.event == verify::smt::kMissing ? q.terms.boolConst(false)
                                                      : q.terms.lt(time[pred.event], time[e]));
      }
    }
  return q;
}

smt::Query timestampedStuckStateQuery(const verify::smt::UnitEventGraph& graph) {
  smt::Query q;
  q.name = "timestamped stuck state " + graph.config().describe();
  smt::TermStore& T = q.terms;
  // Groups as in encoding 1: an event with a predecessor starts one, as does a block's first event.
  std::vector<uint32_t> group(graph.size());
  std::vector<smt::Term> ran, time;
  for (int32_t tb = 0; tb < graph.index().threadBlockCount(); ++tb)
    for (uint32_t e = graph.firstEvent(tb); e < graph.endEvent(tb); ++e) {
      if (e != graph.firstEvent(tb) && graph.event(e).predecessorCount == 0) {
        group[e] = group[e - 1];
        continue;
      }
      group[e] = static_cast<uint32_t>(ran.size());
      ran.push_back(T.boolVar(name("ran", e)));
      time.push_back(T.intVar(name("at", e)));
    }
  std::vector<smt::Term> unfinished;
  for (int32_t tb = 0; tb < graph.index().threadBlockCount(); ++tb) {
    if (graph.firstEvent(tb) == graph.endEvent(tb)) continue;
    for (uint32_t e = graph.firstEvent(tb); e < graph.endEvent(tb); ++e) {
      const uint32_t g = group[e];
      if (e != graph.firstEvent(tb) && g == group[e - 1]) continue;
      const bool first = e == graph.firstEvent(tb);
      const smt::Term before = first ? T.boolConst(true) : ran[g - 1];
      if (!first) {
        q.require(T.implies(ran[g], before));
        q.require(T.lt(time[g - 1], time[g]));
      }
      const verify::smt::UnitEvent& ev = graph.event(e);
      std::vector<smt::Term> unmet;
      bool missing = false;
      for (uint32_t p = 0; p < ev.predecessorCount; ++p) {
        const verify::smt::Predecessor& pred = graph.predecessors(ev)[p];
        if (pred.event == verify::smt::kMissing) {
          missing = true;
          continue;
        }
        const uint32_t source = group[pred.event];
        q.require(T.implies(ran[g], T.andTerm({ran[source], T.lt(time[source], time[g])})));
        unmet.push_back(T.notTerm(ran[source]));
      }
      if (missing)
        q.require(T.notTerm(ran[g]));
      else
        q.require(T.implies(T.andTerm({before, T.notTerm(ran[g])}), T.orTerm(unmet)));
    }
    unfinished.push_back(T.notTerm(ran[group[graph.endEvent(tb) - 1]]));
  }
  q.require(T.orTerm(unfinished));
  return q;
}

}  // namespace ccforge::bench
