// Symbolic chunk values: an input chunk (rank, index), a reduction (a multiset of input
// chunks), or uninitialised data. Values are interned, so equal multisets share one id and
// comparing two values is comparing two integers, however many ranks contributed.
//
// A reduction is stored as a node Sum(a, b) with a 128-bit multiset hash (the wrapping sum of
// per-atom hashes, which is commutative and associative) and an atom count; the multiset itself
// is only materialised to explain a wrong value. Uninitialised data is an atom too, so
// "in(0,1) + uninitialised" is a distinct, explainable value.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ccforge {

// One contribution to a value: input chunk `index` of `rank`, or uninitialised data (rank -1).
struct Atom {
  int32_t rank = -1;
  int32_t index = -1;
  bool uninitialized() const { return rank < 0; }
  auto operator<=>(const Atom&) const = default;
};

class ChunkValues {
 public:
  using Id = uint32_t;
  static constexpr Id kUninitialized = 0;

  ChunkValues();

  Id input(int32_t rank, int32_t index);
  Id reduce(Id a, Id b);

  uint64_t atomCount(Id v) const { return nodes_[v].atoms; }
  bool isReduction(Id v) const { return nodes_[v].left != kNoChild; }
  // Atom of a non-reduction value.
  Atom atom(Id v) const { return nodes_[v].atom; }
  // The multiset, sorted; duplicates appear repeatedly.
  std::vector<Atom> atoms(Id v) const;
  // Atoms that occur more than once (a chunk reduced twice), sorted, each listed once.
  std::vector<Atom> repeatedAtoms(Id v) const;
  bool includesUninitialized(Id v) const;
  // "in(0,1)", "in(0,1)+in(1,1)", "uninitialised", "sum of 64 inputs (in(0,3)+...+in(63,3))".
  std::string describe(Id v, size_t maxAtoms = 8) const;
  size_t size() const { return nodes_.size(); }

 private:
  static constexpr Id kNoChild = UINT32_MAX;
  struct Hash128 {
    uint64_t lo = 0, hi = 0;
    bool operator==(const Hash128&) const = default;
  };
  struct HashOf {
    size_t operator()(const Hash128& h) const { return static_cast<size_t>(h.lo ^ (h.hi * 0x9e3779b97f4a7c15ull)); }
  };
  struct Node {
    Hash128 hash;
    uint64_t atoms = 1;
    Id left = kNoChild, right = kNoChild;
    Atom atom;
  };
  static Hash128 hashAtom(Atom a);
  Id intern(const Node& node);

  std::vector<Node> nodes_;
  std::unordered_map<Hash128, Id, HashOf> byHash_;
};

std::string describeAtom(Atom a);

}  // namespace ccforge
