#include "semantics/step_kinds.hpp"
#include "verify/races.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "ir/names.hpp"

namespace ccforge::verify {
namespace {

struct Access {
  ir::Buffer buffer;
  int32_t offset;
  bool writes;
};

// The chunks a step touches under runtime semantics; `re` reads and writes its destination.
std::vector<Access> accessesOf(const semantics::LoadedStep& st) {
  std::vector<Access> out;
  if (st.type == ir::OpType::Nop) return out;
  if (semantics::readsLocalSource(st.type)) out.push_back({st.srcbuf, st.srcoff, false});
  if (semantics::writesLocalDestination(st.type)) out.push_back({st.dstbuf, st.dstoff, true});
  return out;
}

struct LocationHistory {
  uint32_t lastWrite = semantics::kNoStep;
  std::vector<uint32_t> reads;  // since the last write, the latest per thread block
};

class RaceChecker {
 public:
  RaceChecker(const semantics::LoadedProgram& index, const StepGraph& graph, semantics::CallForm form,
              const std::vector<semantics::RankLayout>& layouts, uint64_t& budget, Findings& findings)
      : index_(index), graph_(graph), form_(form), layouts_(layouts), budget_(budget), findings_(findings) {
    visited_[0].assign(index.stepCount(), 0);
    visited_[1].assign(index.stepCount(), 0);
  }

  RaceResult run() {
    std::vector<std::vector<uint32_t>> byRank(static_cast<size_t>(index_.ranks()));
    for (uint32_t s : graph_.order()) byRank[index_.rankOf(index_.tbOfStep(s))].push_back(s);
    for (int32_t r = 0; r < index_.ranks() && result_.complete; ++r) checkRank(r, byRank[r]);
    return result_;
  }

 private:
  // Processes the rank's steps in happens-before order, keeping for each thread block a vector
  // clock over the rank's blocks (program order and dependencies: the rank-local part of
  // happens-before) and, per chunk, the last write and the reads since.
  void checkRank(int32_t rank, const std::vector<uint32_t>& steps) {
    const int32_t nTbs = index_.threadBlocksOfRank(rank), firstTb = index_.firstTbOfRank(rank);
    clocks_.assign(static_cast<size_t>(nTbs) * nTbs, -1);
    snapshots_.clear();
    std::vector<std::vector<LocationHistory>> history;
    for (int32_t size : layouts_[rank].regionSizes) history.emplace_back(static_cast<size_t>(size));
    for (uint32_t s : steps) {
      const int32_t t = index_.tbOfStep(s) - firstTb;
      int32_t* clock = &clocks_[static_cast<size_t>(t) * nTbs];
      const semantics::LoadedStep& st = index_.step(s);
      for (const semantics::FlagWait* w = index_.waitsBegin(s); w != index_.waitsEnd(s); ++w)
        if (auto it = snapshots_.find(index_.publisherOf(*w)); it != snapshots_.end())
          for (int32_t u = 0; u < nTbs; ++u) clock[u] = std::max(clock[u], it->second[u]);
      if (st.chainLength < 2) overlapWithinStep(rank, s, st);
      for (const Access& a : accessesOf(st)) {
        const semantics::BufferView& view = layouts_[rank].view(a.buffer);
        // Only the chunks inside the view (outside: a lint error, not a race), in 64 bits: a
        // file's offset and count may be anything up to 2^31 - 1.
        const int64_t first = std::max<int64_t>(0, -int64_t{a.offset});
        const int64_t end = std::min<int64_t>(st.cnt, int64_t{view.length} - a.offset);
        for (int64_t j = first; j < end && result_.complete; ++j)
          visit(history[view.region][static_cast<size_t>(view.base + a.offset + j)], s, a, static_cast<int32_t>(j),
                clock, firstTb);
      }
      clock[t] = index_.indexInTb(s);
      if (st.publishes) snapshots_[s].assign(clock, clock + nTbs);
    }
  }

  // A step whose source and destination share memory, shifted: the kernel's threads copy (and
  // reduce) their elements in no order, so some read a chunk another has already written
  // (msccl_kernel.cu: localCopy, reduce and the recv-reduce primitives split the elements among
  // warps). Identical ranges are fine: each element is read and written by one thread. Fused
  // chains are limits.fused-reduce's.
  void overlapWithinStep(int32_t rank, uint32_t s, const semantics::LoadedStep& st) {
    if (!semantics::readsLocalSource(st.type) || !semantics::writesLocalDestination(st.type)) return;
    const semantics::BufferView &src = layouts_[rank].view(st.srcbuf), &dst = layouts_[rank].view(st.dstbuf);
    const int64_t from = int64_t{src.base} + st.srcoff, to = int64_t{dst.base} + st.dstoff;
    if (src.region != dst.region || from == to || from + st.cnt <= to || to + st.cnt <= from) return;
    ++result_.races;
    const StepRef at = stepRef(index_, s, "reads and writes the same memory shifted");
    findings_.error(
        Check::Races, "race.within-step", st.where,
        fmt::format("{}: rank {} tb {} step {}: '{}' reads {}[{}..{}) and writes {}[{}..{}), the same "
                    "memory shifted by {} chunks; the kernel's threads move the elements in no order, "
                    "so some read a chunk another has already overwritten",
                    callFormName(form_), rank, at.tb, at.step, ir::opTypeName(st.type), ir::bufferLetter(st.srcbuf),
                    st.srcoff, int64_t{st.srcoff} + st.cnt, ir::bufferLetter(st.dstbuf), st.dstoff,
                    int64_t{st.dstoff} + st.cnt, to > from ? to - from : from - to),
        {at});
  }

  void visit(LocationHistory& h, uint32_t s, const Access& a, int32_t j, const int32_t* clock, int32_t firstTb) {
    auto check = [&](uint32_t earlier, bool earlierWrites) {
      if (earlier != semantics::kNoStep && earlier != s && !ordered(earlier, s, clock, firstTb))
        report(earlier, earlierWrites, s, a, j);
    };
    check(h.lastWrite, true);
    const int32_t tb = index_.tbOfStep(s);
    if (a.writes) {
      for (uint32_t r : h.reads) check(r, false);
      h.lastWrite = s;
      h.reads.clear();
      return;
    }
    for (uint32_t& r : h.reads)
      if (index_.tbOfStep(r) == tb) {
        r = s;
        return;
      }
    h.reads.push_back(s);
  }

  bool ordered(uint32_t a, uint32_t b, const int32_t* clock, int32_t firstTb) {
    const int32_t ta = index_.tbOfStep(a);
    if (ta == index_.tbOfStep(b) || clock[ta - firstTb] >= index_.indexInTb(a)) return true;
    return strictPathExists(a, b);
  }

  // Precise search backwards from b for a path to a that contains a strict edge. Only steps
  // placed between a and b in the topological order can lie on such a path.
  bool strictPathExists(uint32_t a, uint32_t b) {
    ++generation_;
    const uint32_t floor = graph_.position(a);
    std::vector<std::pair<uint32_t, bool>> stack{{b, false}};
    bool found = false;
    while (!stack.empty() && !found) {
      const uint32_t x = stack.back().first;
      const bool strict = stack.back().second;
      stack.pop_back();
      graph_.forEachPredecessor(x, [&](uint32_t p, bool edgeStrict) {
        bool st = strict || edgeStrict;
        if (found || graph_.position(p) < floor) return;
        if (p == a) {
          found = found || st;
          return;
        }
        if (visited_[st][p] == generation_ || (!st && visited_[1][p] == generation_)) return;
        visited_[st][p] = generation_;
        if (budget_ == 0) {
          result_.complete = false;
          return;
        }
        --budget_;
        stack.emplace_back(p, st);
      });
      if (!result_.complete) return true;  // undecided: do not report a race we could not prove
    }
    return found;
  }

  void report(uint32_t earlier, bool earlierWrites, uint32_t later, const Access& a, int32_t j) {
    if (!reported_.insert({earlier, later}).second) return;
    ++result_.races;
    const char* rule = earlierWrites ? (a.writes ? "race.write-write" : "race.write-read") : "race.read-write";
    const int32_t rank = index_.rankOf(index_.tbOfStep(later));
    auto role = [&](uint32_t s) {
      const semantics::LoadedStep& st = index_.step(s);
      std::string parts;
      for (const Access& x : accessesOf(st)) {
        if (!parts.empty()) parts += ", ";
        parts += fmt::format("{} {}[{}..{})", x.writes ? "writes" : "reads", ir::bufferLetter(x.buffer), x.offset,
                             x.offset + st.cnt);
      }
      return fmt::format("'{}' {}", ir::opTypeName(st.type), parts);
    };
    StepRef first = stepRef(index_, earlier, role(earlier)), second = stepRef(index_, later, role(later));
    findings_.error(Check::Races, rule, index_.step(later).where,
                    fmt::format("{}: rank {} {}[{}] is accessed by tb {} step {} and tb {} step {}, at least one a "
                                "write, and no dependency, program order or FIFO order puts one before the other",
                                callFormName(form_), rank, ir::bufferLetter(a.buffer), a.offset + j, first.tb,
                                first.step, second.tb, second.step),
                    {first, second});
  }

  const semantics::LoadedProgram& index_;
  const StepGraph& graph_;
  semantics::CallForm form_;
  const std::vector<semantics::RankLayout>& layouts_;
  uint64_t& budget_;
  Findings& findings_;
  RaceResult result_;
  std::vector<int32_t> clocks_;
  std::unordered_map<uint32_t, std::vector<int32_t>> snapshots_;
  std::vector<uint32_t> visited_[2];
  uint32_t generation_ = 0;
  std::set<std::pair<uint32_t, uint32_t>> reported_;
};

}  // namespace

RaceResult checkRaces(const semantics::LoadedProgram& index, const StepGraph& graph, semantics::CallForm form,
                      const std::vector<semantics::RankLayout>& layouts, uint64_t& searchBudget, Findings& findings) {
  return RaceChecker(index, graph, form, layouts, searchBudget, findings).run();
}

}  // namespace ccforge::verify
