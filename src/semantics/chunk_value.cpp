#include "semantics/chunk_value.hpp"

#include <algorithm>
#include <iterator>

namespace ccforge::semantics {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::string describeAtom(Atom a) {
  if (a.uninitialized()) return "uninitialised";
  return "in(" + std::to_string(a.rank) + "," + std::to_string(a.index) + ")";
}

ChunkValues::ChunkValues() : slots_(64) {
  intern(Node{hashAtom(Atom{}), 1, kNoChild, kNoChild, Atom{}}, Runs{{{-1, -1, -1}}, 1});
}

ChunkValues::Hash128 ChunkValues::hashAtom(Atom a) {
  uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(a.rank)) << 32) | static_cast<uint32_t>(a.index);
  return {splitmix64(key), splitmix64(key ^ 0x5851f42d4c957f2dull)};
}

ChunkValues::Id ChunkValues::lookup(const Hash128& hash) const {
  const size_t mask = slots_.size() - 1;
  const auto tag = static_cast<uint32_t>(hash.hi);
  for (size_t i = hash.lo & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.value == kNoValue) return kNoValue;
    if (slot.tag == tag && nodes_[slot.value].hash == hash) return slot.value;
  }
}

void ChunkValues::index(Id v) {
  if (2 * nodes_.size() > slots_.size()) {
    slots_.assign(2 * slots_.size(), Slot{});
    for (Id w = 0; w < v; ++w) place(w);
  }
  place(v);
}

void ChunkValues::place(Id v) {
  const Hash128& hash = nodes_[v].hash;
  const size_t mask = slots_.size() - 1;
  size_t i = hash.lo & mask;
  while (slots_[i].value != kNoValue) i = (i + 1) & mask;
  slots_[i] = Slot{v, static_cast<uint32_t>(hash.hi)};
}

ChunkValues::Id ChunkValues::intern(const Node& node, const Runs& runs) {
  if (const Id known = lookup(node.hash); known != kNoValue) return known;
  const auto id = static_cast<Id>(nodes_.size());
  nodes_.push_back(node);
  if (runs.count > 0) {
    nodes_.back().runsBegin = static_cast<uint32_t>(runs_.size());
    nodes_.back().runCount = runs.count;
    runs_.insert(runs_.end(), runs.run, runs.run + runs.count);
  }
  index(id);
  return id;
}

ChunkValues::Id ChunkValues::input(int32_t rank, int32_t index) {
  Atom a{rank, index};
  return intern(Node{hashAtom(a), 1, kNoChild, kNoChild, a}, Runs{{{index, rank, rank}}, 1});
}

ChunkValues::Id ChunkValues::reduce(Id a, Id b) {
  const Node& x = nodes_[a];
  const Node& y = nodes_[b];
  Node sum;
  sum.hash = {x.hash.lo + y.hash.lo, x.hash.hi + y.hash.hi};
  sum.atoms = x.atoms + y.atoms;
  sum.left = a;
  sum.right = b;
  if (const Id known = lookup(sum.hash); known != kNoValue) return known;
  return intern(sum, unionRuns(x, y));
}

namespace {
bool runBefore(int32_t index, int32_t lo, int32_t otherIndex, int32_t otherLo) {
  return index != otherIndex ? index < otherIndex : lo < otherLo;
}
}  // namespace

ChunkValues::Runs ChunkValues::unionRuns(const Node& a, const Node& b) const {
  if (a.runCount == kNoRuns || b.runCount == kNoRuns) return {};
  const Run* p = runs_.data() + a.runsBegin;
  const Run* q = runs_.data() + b.runsBegin;
  const Run *pEnd = p + a.runCount, *qEnd = q + b.runCount;
  Runs out;
  while (p != pEnd || q != qEnd) {
    const Run next = (q == qEnd || (p != pEnd && runBefore(p->index, p->lo, q->index, q->lo))) ? *p++ : *q++;
    Run* last = out.count > 0 ? &out.run[out.count - 1] : nullptr;
    if (last && last->index == next.index && next.lo <= last->hi) return {};  // overlap: an atom twice
    if (last && last->index == next.index && next.lo == last->hi + 1) {
      last->hi = next.hi;
    } else {
      if (out.count == kMaxRuns) return {};
      out.run[out.count++] = next;
    }
  }
  return out;
}

std::optional<Atom> ChunkValues::sharedAtom(Id a, Id b) const {
  const Node& x = nodes_[a];
  const Node& y = nodes_[b];
  if (x.runCount != kNoRuns && y.runCount != kNoRuns) {
    // Sets kept as runs: the first overlap of two sorted run lists, in atom order (rank, index).
    std::optional<Atom> first;
    for (uint32_t i = 0; i < x.runCount; ++i)
      for (uint32_t j = 0; j < y.runCount; ++j) {
        const Run& r = runs_[x.runsBegin + i];
        const Run& t = runs_[y.runsBegin + j];
        if (r.index != t.index || std::max(r.lo, t.lo) > std::min(r.hi, t.hi)) continue;
        const Atom shared{std::max(r.lo, t.lo), r.index};
        if (!first || shared < *first) first = shared;
      }
    return first;
  }
  const std::vector<Atom> p = atoms(a), q = atoms(b);
  std::vector<Atom> both;
  std::set_intersection(p.begin(), p.end(), q.begin(), q.end(), std::back_inserter(both));
  if (both.empty()) return std::nullopt;
  return both.front();
}

ChunkValues::Id ChunkValues::sumOfInputs(int32_t ranks, int32_t index) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(ranks)) << 32) | static_cast<uint32_t>(index);
  if (const auto it = sumsOfInputs_.find(key); it != sumsOfInputs_.end()) return it->second;
  // A correct program has built this sum already, in its own order: find it by its hash, and
  // build the chain of `ranks` reductions only when no value equals it (a wrong program).
  Hash128 sum;
  for (int32_t q = 0; q < ranks; ++q) {
    const Hash128 h = hashAtom(Atom{q, index});
    sum = {sum.lo + h.lo, sum.hi + h.hi};
  }
  if (const Id known = lookup(sum); known != kNoValue) {
    sumsOfInputs_.emplace(key, known);
    return known;
  }
  Id v = input(0, index);
  for (int32_t q = 1; q < ranks; ++q) v = reduce(v, input(q, index));
  sumsOfInputs_.emplace(key, v);
  return v;
}

std::vector<Atom> ChunkValues::atoms(Id v) const {
  std::vector<Atom> out;
  out.reserve(nodes_[v].atoms);
  std::vector<Id> stack{v};
  while (!stack.empty()) {
    Id id = stack.back();
    stack.pop_back();
    const Node& n = nodes_[id];
    if (n.left == kNoChild) {
      out.push_back(n.atom);
    } else {
      stack.push_back(n.right);
      stack.push_back(n.left);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Atom> ChunkValues::repeatedAtoms(Id v) const {
  std::vector<Atom> all = atoms(v), repeated;
  for (size_t i = 1; i < all.size(); ++i)
    if (all[i] == all[i - 1] && (repeated.empty() || repeated.back() != all[i])) repeated.push_back(all[i]);
  return repeated;
}

bool ChunkValues::includesUninitialized(Id v) const {
  if (!isReduction(v)) return nodes_[v].atom.uninitialized();
  std::vector<Atom> all = atoms(v);
  return !all.empty() && all.front().uninitialized();
}

std::string ChunkValues::describe(Id v, size_t maxAtoms) const {
  if (!isReduction(v)) return describeAtom(nodes_[v].atom);
  std::vector<Atom> all = atoms(v);
  std::string list;
  auto append = [&](size_t i) {
    if (!list.empty()) list += '+';
    list += describeAtom(all[i]);
  };
  if (all.size() <= maxAtoms) {
    for (size_t i = 0; i < all.size(); ++i) append(i);
    return list;
  }
  for (size_t i = 0; i + 1 < maxAtoms; ++i) append(i);
  list += "+...+" + describeAtom(all.back());
  return "sum of " + std::to_string(all.size()) + " (" + list + ")";
}

}  // namespace ccforge::semantics
