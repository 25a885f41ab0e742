#include "semantics/step_kinds.hpp"
#include "verify/postcondition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>

#include "ir/names.hpp"
#include "verify/symbolic_execution.hpp"

namespace ccforge::verify {
namespace {

constexpr size_t kChainLength = 12;

std::string atomList(const std::vector<semantics::Atom>& atoms) {
  std::string out;
  for (size_t i = 0; i < atoms.size() && i < 8; ++i) {
    if (!out.empty()) out += ", ";
    out += describeAtom(atoms[i]);
  }
  if (atoms.size() > 8) out += fmt::format(", ... ({} in all)", atoms.size());
  return out;
}

// What is missing, extra, or counted twice in `actual` compared with `expected`.
std::vector<std::string> valueDifferences(const semantics::ChunkValues& values, semantics::ChunkValues::Id actual,
                                          semantics::ChunkValues::Id expected) {
  std::vector<semantics::Atom> have = values.atoms(actual), want = values.atoms(expected), missing, extra;
  std::set_difference(want.begin(), want.end(), have.begin(), have.end(), std::back_inserter(missing));
  std::set_difference(have.begin(), have.end(), want.begin(), want.end(), std::back_inserter(extra));
  std::vector<std::string> out;
  std::vector<semantics::Atom> twice = values.repeatedAtoms(actual);
  if (!twice.empty()) out.push_back("reduced in more than once: " + atomList(twice));
  extra.erase(std::remove_if(extra.begin(), extra.end(),
                             [&](const semantics::Atom& a) {
                               return a.uninitialized() || std::binary_search(twice.begin(), twice.end(), a);
                             }),
              extra.end());
  extra.erase(std::unique(extra.begin(), extra.end()), extra.end());
  if (values.includesUninitialized(actual)) out.push_back("contains uninitialised data");
  if (!missing.empty()) out.push_back("missing: " + atomList(missing));
  if (!extra.empty()) out.push_back("not expected: " + atomList(extra));
  return out;
}

class Explainer {
 public:
  Explainer(const semantics::LoadedProgram& index, const StepGraph& graph, const SymbolicExecution& exec,
            const semantics::ChunkValues& values)
      : index_(index), graph_(graph), exec_(exec), values_(values) {}

  // The steps that produced a cell, latest first in discovery, reported in execution order.
  void explain(uint32_t provenance, std::vector<StepRef>& steps, std::vector<std::string>& evidence) const {
    std::vector<uint32_t> nodes;
    std::deque<uint32_t> queue{provenance};
    std::set<uint32_t> seen;
    while (!queue.empty() && nodes.size() < kChainLength) {
      uint32_t id = queue.front();
      queue.pop_front();
      const Provenance& p = exec_.provenance(id);
      if (p.step == semantics::kNoStep || !seen.insert(id).second) continue;
      nodes.push_back(id);
      noteUninitialisedOperands(p, evidence);
      queue.push_back(p.from);
      if (p.with > SymbolicExecution::kOutOfBounds) queue.push_back(p.with);
    }
    std::sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
      return graph_.position(exec_.provenance(a).step) < graph_.position(exec_.provenance(b).step);
    });
    for (uint32_t id : nodes) {
      const Provenance& p = exec_.provenance(id);
      const semantics::LoadedStep& st = index_.step(p.step);
      steps.push_back(stepRef(index_, p.step,
                              fmt::format("{} {}[{}..{}) -> {}", ir::opTypeName(st.type), bufferOf(st), offsetOf(st),
                                          offsetOf(st) + st.cnt, values_.describe(p.value))));
    }
  }

 private:
  static char bufferOf(const semantics::LoadedStep& st) {
    return ir::bufferLetter(semantics::writesLocalDestination(st.type) ? st.dstbuf : st.srcbuf);
  }
  static int32_t offsetOf(const semantics::LoadedStep& st) {
    return semantics::writesLocalDestination(st.type) ? st.dstoff : st.srcoff;
  }

  // Where uninitialised data enters: `with` is always the local source operand of a reduction,
  // `from` the received data, the copied source, or (for 're') the destination reduced into.
  void noteUninitialisedOperands(const Provenance& p, std::vector<std::string>& evidence) const {
    const semantics::LoadedStep& st = index_.step(p.step);
    StepRef at = stepRef(index_, p.step);
    std::string who = fmt::format("rank {} tb {} step {} ('{}')", at.rank, at.tb, at.step, ir::opTypeName(st.type));
    if (p.with == SymbolicExecution::kOutOfBounds || p.from == SymbolicExecution::kOutOfBounds)
      evidence.push_back(who + " reads outside its buffer (see the limits errors): unknown data");
    if (p.with == SymbolicExecution::kNeverWritten)
      evidence.push_back(
          fmt::format("{} reduces with {}[{}] of rank {}, which nothing wrote (uninitialised){}", who,
                      ir::bufferLetter(st.srcbuf), st.srcoff, at.rank,
                      semantics::receives(st.type)
                          ? "; the runtime reads the local operand at srcbuf/srcoff, where some compilers put "
                            "the sender's buffer"
                          : ""));
    if (p.from != SymbolicExecution::kNeverWritten) return;
    if (semantics::receives(st.type))
      evidence.push_back(who + " receives data that the sender never wrote");
    else if (st.type == ir::OpType::Reduce)
      evidence.push_back(
          fmt::format("{} reduces into {}[{}], which nothing wrote", who, ir::bufferLetter(st.dstbuf), st.dstoff));
    else
      evidence.push_back(
          fmt::format("{} copies {}[{}], which nothing wrote", who, ir::bufferLetter(st.srcbuf), st.srcoff));
  }

  const semantics::LoadedProgram& index_;
  const StepGraph& graph_;
  const SymbolicExecution& exec_;
  const semantics::ChunkValues& values_;
};

}  // namespace

size_t checkPostcondition(const semantics::LoadedProgram& index, const StepGraph& graph,
                          const semantics::Collective& collective, semantics::CallForm form,
                          const std::vector<semantics::RankLayout>& layouts, Findings& findings) {
  semantics::ChunkValues values;
  SymbolicExecution exec(index, layouts, collective, values);
  exec.run(graph);
  Explainer explainer(index, graph, exec, values);
  size_t wrong = 0;
  for (int32_t r = 0; r < index.ranks(); ++r) {
    for (int32_t k = 0; k < collective.outputChunks(); ++k) {
      auto expected = collective.expectedOutput(values, r, k);
      if (!expected) continue;
      Cell got = exec.cell(r, ir::Buffer::Output, k);
      if (got.value == *expected) continue;
      ++wrong;
      std::vector<StepRef> steps;
      std::vector<std::string> evidence = valueDifferences(values, got.value, *expected);
      if (got.provenance == SymbolicExecution::kNeverWritten)
        evidence.push_back("no step writes it");
      else if (got.provenance == SymbolicExecution::kInitialInput)
        evidence.push_back("no step writes it: it still holds its input");
      else
        explainer.explain(got.provenance, steps, evidence);
      base::TextLocation where = steps.empty() ? index.algorithm().where : steps.back().where;
      findings.error(Check::Postcondition, "postcondition.wrong-chunk", where,
                     fmt::format("{}: rank {} output chunk {} holds {}, but {} requires {}", callFormName(form), r, k,
                                 values.describe(got.value), collective.describe(), values.describe(*expected)),
                     std::move(steps), std::move(evidence));
    }
  }
  return wrong;
}

}  // namespace ccforge::verify
