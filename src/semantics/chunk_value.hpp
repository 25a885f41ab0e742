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
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ccforge::semantics {

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
  // in(0,index) + ... + in(ranks-1,index), built once per (ranks, index): a postcondition asks
  // for it at every rank, and building it costs `ranks` reductions.
  Id sumOfInputs(int32_t ranks, int32_t index);

  uint64_t atomCount(Id v) const { return nodes_[v].atoms; }
  bool isReduction(Id v) const { return nodes_[v].left != kNoChild; }
  // Atom of a non-reduction value.
  Atom atom(Id v) const { return nodes_[v].atom; }
  // The multiset, sorted; duplicates appear repeatedly.
  std::vector<Atom> atoms(Id v) const;
  // Atoms that occur more than once (a chunk reduced twice), sorted, each listed once.
  std::vector<Atom> repeatedAtoms(Id v) const;
  bool includesUninitialized(Id v) const;
  // An atom both values contain, the smallest; nullopt when they share none. Cheap while the
  // values are sets of few runs of consecutive ranks (what rings, trees and halving build).
  std::optional<Atom> sharedAtom(Id a, Id b) const;
  // "in(0,1)", "in(0,1)+in(1,1)", "uninitialised", "sum of 64 inputs (in(0,3)+...+in(63,3))".
  std::string describe(Id v, size_t maxAtoms = 8) const;
  size_t size() const { return nodes_.size(); }

 private:
  static constexpr Id kNoChild = UINT32_MAX;
  struct Hash128 {
    uint64_t lo = 0, hi = 0;
    bool operator==(const Hash128&) const = default;
  };
  // Ranks lo..hi of one input index: a value that is a set (no atom twice) is kept as its sorted
  // runs while it has at most kMaxRuns of them, so that two values' overlap is a merge of runs.
  struct Run {
    int32_t index, lo, hi;
  };
  static constexpr uint32_t kMaxRuns = 8;
  static constexpr uint32_t kNoRuns = UINT32_MAX;
  struct Node {
    Hash128 hash;
    uint64_t atoms = 1;
    Id left = kNoChild, right = kNoChild;
    Atom atom;
    uint32_t runsBegin = 0, runCount = kNoRuns;  // into runs_; kNoRuns: not kept
  };
  struct Runs {
    Run run[kMaxRuns];
    uint32_t count = 0;  // 0: not kept
  };
  static Hash128 hashAtom(Atom a);
  // The value with this hash, kNoValue if none: an open-addressing table of ids (linear probing,
  // each slot tagged with 32 more bits of the hash so that a probe rarely reads a node). Large
  // programs intern millions of values; a node-based map spent most of compile time allocating
  // and chasing its nodes, and Debian 12's Boost (1.74) has no open-addressing map.
  static constexpr Id kNoValue = UINT32_MAX;
  Id lookup(const Hash128& hash) const;
  void index(Id v);  // grows the table first when it would be more than half full
  void place(Id v);
  Id intern(const Node& node, const Runs& runs);
  // The runs of a + b; none when a or b has none kept, they overlap, or there are too many.
  Runs unionRuns(const Node& a, const Node& b) const;

  std::vector<Node> nodes_;
  std::vector<Run> runs_;
  struct Slot {
    Id value = kNoValue;
    uint32_t tag = 0;
  };
  std::vector<Slot> slots_;  // a power of two, at most half full
  std::unordered_map<uint64_t, Id> sumsOfInputs_;
};

std::string describeAtom(Atom a);

}  // namespace ccforge::semantics
