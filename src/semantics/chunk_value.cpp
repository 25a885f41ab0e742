#include "semantics/chunk_value.hpp"

#include <algorithm>

namespace ccforge {
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

ChunkValues::ChunkValues() { intern(Node{hashAtom(Atom{}), 1, kNoChild, kNoChild, Atom{}}); }

ChunkValues::Hash128 ChunkValues::hashAtom(Atom a) {
  uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(a.rank)) << 32) | static_cast<uint32_t>(a.index);
  return {splitmix64(key), splitmix64(key ^ 0x5851f42d4c957f2dull)};
}

ChunkValues::Id ChunkValues::intern(const Node& node) {
  auto [it, inserted] = byHash_.try_emplace(node.hash, static_cast<Id>(nodes_.size()));
  if (inserted) nodes_.push_back(node);
  return it->second;
}

ChunkValues::Id ChunkValues::input(int32_t rank, int32_t index) {
  Atom a{rank, index};
  return intern(Node{hashAtom(a), 1, kNoChild, kNoChild, a});
}

ChunkValues::Id ChunkValues::reduce(Id a, Id b) {
  const Node& x = nodes_[a];
  const Node& y = nodes_[b];
  Node sum;
  sum.hash = {x.hash.lo + y.hash.lo, x.hash.hi + y.hash.hi};
  sum.atoms = x.atoms + y.atoms;
  sum.left = a;
  sum.right = b;
  return intern(sum);
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

}  // namespace ccforge
