#include "verify/fused.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "ir/names.hpp"
#include "semantics/step_kinds.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify {
namespace {

std::string rowsText(int64_t first, int64_t count) { return fmt::format("rows {}..{}", first, first + count - 1); }

// Compute steps of a rank, in step order.
std::vector<uint32_t> producersOf(const semantics::LoadedProgram& program, int32_t rank) {
  std::vector<uint32_t> out;
  const uint32_t begin = program.firstStep(program.firstTbOfRank(rank));
  const uint32_t end =
      rank + 1 < program.ranks() ? program.firstStep(program.firstTbOfRank(rank + 1)) : program.stepCount();
  for (uint32_t s = begin; s < end; ++s)
    if (semantics::computes(program.step(s).type)) out.push_back(s);
  return out;
}

// Backward search over happens-before (step_graph.hpp): is `earlier` ordered before `later`, by a
// path with at least one strict edge?
class HappensBefore {
 public:
  HappensBefore(const semantics::LoadedProgram& program, const StepGraph& graph, uint64_t& budget)
      : graph_(graph), budget_(budget), mark_(2 * static_cast<size_t>(program.stepCount()), 0) {}

  // nullopt: the budget ran out.
  std::optional<bool> ordered(uint32_t earlier, uint32_t later) {
    ++generation_;
    stack_.clear();
    push(later, false);
    while (!stack_.empty()) {
      const uint32_t s = stack_.back().first;  // not a binding: the lambda below captures it
      const bool strict = stack_.back().second;
      stack_.pop_back();
      if (budget_ == 0) return std::nullopt;
      --budget_;
      bool found = false;
      graph_.forEachPredecessor(s, [&](uint32_t p, bool edgeStrict) {
        const bool st = strict || edgeStrict;
        if (p == earlier && st) found = true;
        push(p, st);
      });
      if (found) return true;
    }
    return false;
  }

 private:
  void push(uint32_t s, bool strict) {
    uint32_t& m = mark_[2 * static_cast<size_t>(s) + (strict ? 1 : 0)];
    if (m == generation_) return;
    m = generation_;
    stack_.push_back({s, strict});
  }

  const StepGraph& graph_;
  uint64_t& budget_;
  std::vector<uint32_t> mark_;
  uint32_t generation_ = 0;
  std::vector<std::pair<uint32_t, bool>> stack_;
};

}  // namespace

void checkProductPartition(const semantics::LoadedProgram& program, Findings& findings) {
  for (int32_t r = 0; r < program.ranks(); ++r) {
    const ir::Gpu& g = program.gpu(r);
    if (!g.product) continue;
    std::vector<uint32_t> producers = producersOf(program, r);
    std::stable_sort(producers.begin(), producers.end(),
                     [&](uint32_t a, uint32_t b) { return program.step(a).row < program.step(b).row; });
    int64_t covered = 0;  // rows 0..covered-1 are covered so far
    uint32_t last = semantics::kNoStep;
    for (uint32_t s : producers) {
      const semantics::LoadedStep& st = program.step(s);
      if (st.row > covered)
        findings.error(Check::Postcondition, "fused.partition", st.where,
                       fmt::format("gpu {}: no compute step defines {} of the {}-row product", r,
                                   rowsText(covered, st.row - covered), g.product->rows),
                       {stepRef(program, s, "the next producer")});
      else if (st.row < covered && last != semantics::kNoStep)
        findings.error(
            Check::Postcondition, "fused.partition", st.where,
            fmt::format("gpu {}: {} of this step overlap {} of another producer; the row ranges must "
                        "partition the product",
                        r, rowsText(st.row, st.nrows), rowsText(program.step(last).row, program.step(last).nrows)),
            {stepRef(program, s, "producer of " + rowsText(st.row, st.nrows)),
             stepRef(program, last, "producer of " + rowsText(program.step(last).row, program.step(last).nrows))});
      if (st.row + static_cast<int64_t>(st.nrows) > covered) {
        covered = st.row + static_cast<int64_t>(st.nrows);
        last = s;
      }
    }
    if (covered < g.product->rows)
      findings.error(Check::Postcondition, "fused.partition", g.product->where,
                     fmt::format("gpu {}: no compute step defines {} of the {}-row product", r,
                                 rowsText(covered, g.product->rows - covered), g.product->rows));
  }
}

bool checkProducers(const semantics::LoadedProgram& program, const StepGraph& graph, uint64_t& budget,
                    Findings& findings) {
  HappensBefore hb(program, graph, budget);
  bool complete = true;
  for (int32_t r = 0; r < program.ranks() && complete; ++r) {
    const ir::Gpu& g = program.gpu(r);
    if (!g.product) continue;
    // Producers of each input chunk of the rank.
    std::map<int32_t, std::vector<uint32_t>> producers;
    for (uint32_t s : producersOf(program, r)) {
      const semantics::LoadedStep& st = program.step(s);
      for (int32_t j = 0; j < st.cnt; ++j) producers[st.dstoff + j].push_back(s);
    }
    for (const auto& [chunk, list] : producers)
      for (size_t k = 1; k < list.size(); ++k)
        findings.error(Check::Races, "fused.double-produce", program.step(list[k]).where,
                       fmt::format("gpu {}: input chunk {} is produced {} times; every product chunk must be produced "
                                   "exactly once",
                                   r, chunk, list.size()),
                       {stepRef(program, list[0], fmt::format("produces i[{}]", chunk)),
                        stepRef(program, list[k], fmt::format("produces i[{}] again", chunk))});
    const uint32_t begin = program.firstStep(program.firstTbOfRank(r));
    const uint32_t end =
        r + 1 < program.ranks() ? program.firstStep(program.firstTbOfRank(r + 1)) : program.stepCount();
    for (uint32_t s = begin; s < end && complete; ++s) {
      const semantics::LoadedStep& st = program.step(s);
      std::vector<int32_t> read;
      if (semantics::readsLocalSource(st.type) && st.srcbuf == ir::Buffer::Input)
        for (int32_t j = 0; j < st.cnt; ++j) read.push_back(st.srcoff + j);
      if (semantics::readsLocalDestination(st.type) && st.dstbuf == ir::Buffer::Input)
        for (int32_t j = 0; j < st.cnt; ++j) read.push_back(st.dstoff + j);
      for (int32_t chunk : read) {
        auto it = producers.find(chunk);
        if (it == producers.end()) {
          findings.error(Check::Races, "fused.unproduced-read", st.where,
                         fmt::format("gpu {}: '{}' reads input chunk {}, which no compute step produces", r,
                                     ir::opTypeName(st.type), chunk),
                         {stepRef(program, s, fmt::format("reads i[{}]", chunk))});
          continue;
        }
        const uint32_t producer = it->second.front();
        if (!graph.runs(producer) || !graph.runs(s)) continue;  // a deadlock, reported there
        const std::optional<bool> ordered = hb.ordered(producer, s);
        if (!ordered) {
          complete = false;
          break;
        }
        if (!*ordered)
          findings.error(Check::Races, "fused.producer-order", st.where,
                         fmt::format("gpu {}: '{}' reads input chunk {}, but neither program order, a dependency nor "
                                     "a send/receive orders its producer before it (it may read the chunk before "
                                     "it is computed)",
                                     r, ir::opTypeName(st.type), chunk),
                         {stepRef(program, producer, fmt::format("produces i[{}]", chunk)),
                          stepRef(program, s, fmt::format("reads i[{}]", chunk))});
      }
    }
  }
  return complete;
}

}  // namespace ccforge::verify
