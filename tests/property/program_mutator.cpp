#include "program_mutator.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "ir/names.hpp"

namespace ccforge::property {
namespace {

using ir::Buffer;
using ir::OpType;

class Mutator {
 public:
  Mutator(Rng& rng, ir::Algorithm& a) : rng_(rng), a_(a) {}

  std::string mutate() {
    for (;;) {
      std::string done;
      switch (rng_.below(15)) {
        case 0: done = dropDependency(); break;
        case 1: done = moveDependency(); break;
        case 2: done = changeCount(); break;
        case 3: done = toggleHasdep(); break;
        case 4:
        case 5: done = changeReductionChain(); break;
        case 6: done = addNop(); break;
        case 7: done = changeBuffer(); break;
        case 8: done = swapSteps(); break;
        case 9: done = changeType(); break;
        case 10: done = changeOffset(); break;
        case 11: done = dropLocalStep(); break;
        case 12: done = changeCallForms(); break;
        default: done = moveToFront(); break;
      }
      if (!done.empty()) return done;
    }
  }

 private:
  struct Where {
    int32_t rank, tb, step;
  };

  std::vector<Where> stepsWhere(auto&& keep) const {
    std::vector<Where> out;
    for (const ir::Gpu& g : a_.gpus)
      for (const ir::ThreadBlock& t : g.threadBlocks)
        for (const ir::Step& s : t.steps)
          if (keep(t, s)) out.push_back({g.id, t.id, s.s});
    return out;
  }
  std::optional<Where> pick(auto&& keep) {
    std::vector<Where> all = stepsWhere(keep);
    if (all.empty()) return std::nullopt;
    return all[static_cast<size_t>(rng_.below(all.size()))];
  }
  ir::ThreadBlock& tb(const Where& w) {
    return a_.gpus[static_cast<size_t>(w.rank)].threadBlocks[static_cast<size_t>(w.tb)];
  }
  ir::Step& at(const Where& w) { return tb(w).steps[static_cast<size_t>(w.step)]; }
  static std::string name(const Where& w) {
    return "rank " + std::to_string(w.rank) + " tb " + std::to_string(w.tb) + " step " + std::to_string(w.step);
  }

  // Keeps `s` numbering and the dependencies on the block's later steps in place after a step was
  // inserted (+1) or removed (-1) at `index`.
  void renumber(const Where& w, int32_t index, int32_t delta) {
    for (ir::ThreadBlock& t : a_.gpus[static_cast<size_t>(w.rank)].threadBlocks)
      for (ir::Step& s : t.steps)
        if (s.depid == w.tb && s.deps >= index + (delta < 0 ? 1 : 0)) s.deps = std::max(0, s.deps + delta);
    std::vector<ir::Step>& steps = tb(w).steps;
    for (size_t i = 0; i < steps.size(); ++i) steps[i].s = static_cast<int32_t>(i);
  }

  std::string dropDependency() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step& s) { return s.depid >= 0; });
    if (!w) return "";
    if (at(*w).type == OpType::Nop && rng_.chance(50)) {
      tb(*w).steps.erase(tb(*w).steps.begin() + w->step);
      renumber(*w, w->step, -1);
      return "removed the nop " + name(*w);
    }
    at(*w).depid = at(*w).deps = -1;
    return "dropped the dependency of " + name(*w);
  }

  std::string moveDependency() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step& s) { return s.depid >= 0; });
    if (!w) return "";
    ir::Step& s = at(*w);
    const std::vector<ir::ThreadBlock>& tbs = a_.gpus[static_cast<size_t>(w->rank)].threadBlocks;
    if (rng_.chance(40) && tbs.size() > 1)
      s.depid = (s.depid + rng_.between(1, static_cast<int32_t>(tbs.size()) - 1)) % static_cast<int32_t>(tbs.size());
    else
      s.deps += rng_.chance(50) ? 1 : -1;
    const int32_t last = static_cast<int32_t>(tbs[static_cast<size_t>(s.depid)].steps.size()) - 1;
    s.deps = std::clamp(s.deps, 0, std::max(0, last));
    return "moved the dependency of " + name(*w) + " to tb " + std::to_string(s.depid) + " step " +
           std::to_string(s.deps);
  }

  std::string changeCount() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step& s) { return s.type != OpType::Nop; });
    if (!w) return "";
    ir::Step& s = at(*w);
    s.cnt = s.cnt > 1 && rng_.chance(50) ? s.cnt - 1 : s.cnt + 1;
    return "set cnt=" + std::to_string(s.cnt) + " at " + name(*w);
  }

  std::string toggleHasdep() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step&) { return true; });
    if (!w) return "";
    at(*w).hasdep = !at(*w).hasdep;
    return std::string("set hasdep=") + (at(*w).hasdep ? "1" : "0") + " at " + name(*w);
  }

  // Two consecutive `re` steps of a block: split the fused chain, join two chains, or give a
  // member another cnt.
  std::string changeReductionChain() {
    auto w = pick([](const ir::ThreadBlock& t, const ir::Step& s) {
      return s.type == OpType::Reduce && static_cast<size_t>(s.s) + 1 < t.steps.size() &&
             t.steps[static_cast<size_t>(s.s) + 1].type == OpType::Reduce;
    });
    if (!w) return "";
    ir::Step &first = at(*w), &second = tb(*w).steps[static_cast<size_t>(w->step) + 1];
    switch (rng_.below(4)) {
      case 0:
        first.hasdep = !first.hasdep;
        return std::string("set hasdep=") + (first.hasdep ? "1" : "0") + " on the reduction " + name(*w);
      case 1: second.depid = second.deps = -1; return "dropped the dependency of the reduction after " + name(*w);
      case 2:
        second.dstbuf = first.dstbuf;
        second.dstoff = first.dstoff;
        second.srcbuf = first.srcbuf;
        return "gave the reduction after " + name(*w) + " its destination and source buffer";
      default:
        first.cnt = second.cnt + 1;
        first.hasdep = rng_.chance(50);
        return "set cnt=" + std::to_string(first.cnt) + " hasdep=" + (first.hasdep ? "1" : "0") + " on the reduction " +
               name(*w);
    }
  }

  std::string addNop() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step&) { return true; });
    if (!w) return "";
    const std::vector<ir::ThreadBlock>& tbs = a_.gpus[static_cast<size_t>(w->rank)].threadBlocks;
    ir::Step nop;
    nop.type = OpType::Nop;
    nop.depid = rng_.below(tbs.size());
    nop.deps = rng_.below(tbs[static_cast<size_t>(nop.depid)].steps.size());
    a_.gpus[static_cast<size_t>(w->rank)]
        .threadBlocks[static_cast<size_t>(nop.depid)]
        .steps[static_cast<size_t>(nop.deps)]
        .hasdep = true;
    const int32_t depid = nop.depid, deps = nop.deps;
    renumber(*w, w->step, +1);  // the dependencies first: the nop itself must keep its target
    tb(*w).steps.insert(tb(*w).steps.begin() + w->step, nop);
    ir::Step& inserted = at(*w);
    inserted.depid = depid;
    inserted.deps = deps + (depid == w->tb && deps >= w->step ? 1 : 0);
    for (size_t i = 0; i < tb(*w).steps.size(); ++i) tb(*w).steps[i].s = static_cast<int32_t>(i);
    return "added a nop waiting for tb " + std::to_string(inserted.depid) + " step " + std::to_string(inserted.deps) +
           " before " + name(*w);
  }

  std::string changeBuffer() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step& s) { return s.type != OpType::Nop; });
    if (!w) return "";
    ir::Step& s = at(*w);
    if (rng_.chance(50)) {
      std::swap(s.srcbuf, s.dstbuf);
      std::swap(s.srcoff, s.dstoff);
      return "swapped source and destination of " + name(*w);
    }
    s.dstbuf = static_cast<Buffer>((static_cast<int>(s.dstbuf) + rng_.between(1, 2)) % 3);
    return std::string("set dstbuf=") + ir::bufferLetter(s.dstbuf) + " at " + name(*w);
  }

  std::string swapSteps() {
    auto w =
        pick([](const ir::ThreadBlock& t, const ir::Step& s) { return static_cast<size_t>(s.s) + 1 < t.steps.size(); });
    if (!w) return "";
    std::vector<ir::Step>& steps = tb(*w).steps;
    std::swap(steps[static_cast<size_t>(w->step)], steps[static_cast<size_t>(w->step) + 1]);
    for (size_t i = 0; i < steps.size(); ++i) steps[i].s = static_cast<int32_t>(i);
    return "swapped " + name(*w) + " with the next step";
  }

  // Another type that moves data over the same connections.
  std::string changeType() {
    static const std::vector<std::vector<OpType>> kSameConnections{
        {OpType::Recv, OpType::RecvReduceCopy},
        {OpType::RecvCopySend, OpType::RecvReduceSend, OpType::RecvReduceCopySend},
        {OpType::Copy, OpType::Reduce}};
    auto w =
        pick([](const ir::ThreadBlock&, const ir::Step& s) { return s.type != OpType::Nop && s.type != OpType::Send; });
    if (!w) return "";
    ir::Step& s = at(*w);
    for (const std::vector<OpType>& group : kSameConnections) {
      auto it = std::find(group.begin(), group.end(), s.type);
      if (it == group.end()) continue;
      s.type = group[(static_cast<size_t>(it - group.begin()) + 1 + static_cast<size_t>(rng_.below(group.size() - 1))) %
                     group.size()];
      if (s.srcoff < 0) s.srcoff = std::max(0, s.dstoff);
      if (s.dstoff < 0) s.dstoff = std::max(0, s.srcoff);
      return std::string("changed ") + name(*w) + " to '" + std::string(ir::opTypeName(s.type)) + "'";
    }
    return "";
  }

  std::string changeOffset() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step& s) { return s.type != OpType::Nop; });
    if (!w) return "";
    ir::Step& s = at(*w);
    int32_t& off = rng_.chance(50) ? s.srcoff : s.dstoff;
    off = off > 0 && rng_.chance(50) ? off - 1 : off + 1;
    return "changed an offset of " + name(*w) + " to " + std::to_string(off);
  }

  std::string dropLocalStep() {
    auto w = pick([](const ir::ThreadBlock& t, const ir::Step& s) {
      return (s.type == OpType::Copy || s.type == OpType::Reduce) && t.steps.size() > 1;
    });
    if (!w) return "";
    tb(*w).steps.erase(tb(*w).steps.begin() + w->step);
    renumber(*w, w->step, -1);
    return "removed " + name(*w);
  }

  // Moves a step to the front of its block (sends before receives need more FIFO slots).
  std::string moveToFront() {
    auto w = pick([](const ir::ThreadBlock&, const ir::Step& s) { return s.s > 0; });
    if (!w) return "";
    std::vector<ir::Step>& steps = tb(*w).steps;
    std::rotate(steps.begin(), steps.begin() + w->step, steps.begin() + w->step + 1);
    for (ir::ThreadBlock& t : a_.gpus[static_cast<size_t>(w->rank)].threadBlocks)
      for (ir::Step& s : t.steps)
        if (s.depid == w->tb && s.deps >= 0 && s.deps <= w->step) s.deps = s.deps == w->step ? 0 : s.deps + 1;
    for (size_t i = 0; i < steps.size(); ++i) steps[i].s = static_cast<int32_t>(i);
    return "moved " + name(*w) + " to the front of its block";
  }

  std::string changeCallForms() {
    const bool in = a_.servesInPlace(), out = a_.servesOutOfPlace();
    do {
      a_.inplace = rng_.chance(50);
      a_.outofplace = rng_.chance(50);
    } while ((*a_.inplace == in && *a_.outofplace == out) || (!*a_.inplace && !*a_.outofplace));
    return std::string("declared inplace=") + (*a_.inplace ? "1" : "0") + " outofplace=" + (*a_.outofplace ? "1" : "0");
  }

  Rng& rng_;
  ir::Algorithm& a_;
};

}  // namespace

std::string mutate(Rng& rng, ir::Algorithm& algorithm) { return Mutator(rng, algorithm).mutate(); }

}  // namespace ccforge::property
