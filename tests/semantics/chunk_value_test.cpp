#include <catch2/catch.hpp>

#include "semantics/chunk_value.hpp"

using ccforge::semantics::Atom;
using ccforge::semantics::ChunkValues;

TEST_CASE("equal multisets get one id whatever the reduction order") {
  ChunkValues v;
  auto a = v.input(0, 1), b = v.input(1, 1), c = v.input(2, 1);
  auto left = v.reduce(v.reduce(a, b), c);
  auto right = v.reduce(a, v.reduce(c, b));
  CHECK(left == right);
  CHECK(v.atomCount(left) == 3);
  CHECK(v.describe(left) == "in(0,1)+in(1,1)+in(2,1)");
  CHECK(left != v.reduce(a, b));
}

TEST_CASE("input chunks are distinct values and uninitialised is id 0") {
  ChunkValues v;
  CHECK(v.input(0, 1) != v.input(1, 0));
  CHECK(v.input(3, 4) == v.input(3, 4));
  CHECK(v.describe(ChunkValues::kUninitialized) == "uninitialised");
  CHECK(v.describe(v.input(3, 4)) == "in(3,4)");
}

TEST_CASE("reducing a chunk twice is visible as a repeated atom") {
  ChunkValues v;
  auto a = v.input(0, 0), b = v.input(1, 0);
  auto twice = v.reduce(v.reduce(a, b), a);
  CHECK(twice != v.reduce(a, b));
  REQUIRE(v.repeatedAtoms(twice) == std::vector<Atom>{Atom{0, 0}});
  CHECK(v.repeatedAtoms(v.reduce(a, b)).empty());
}

TEST_CASE("reducing with uninitialised data is a distinct, explainable value") {
  ChunkValues v;
  auto garbage = v.reduce(v.input(0, 0), ChunkValues::kUninitialized);
  CHECK(garbage != v.input(0, 0));
  CHECK(v.includesUninitialized(garbage));
  CHECK_FALSE(v.includesUninitialized(v.input(0, 0)));
  CHECK(v.describe(garbage) == "uninitialised+in(0,0)");
}

TEST_CASE("long sums are described compactly") {
  ChunkValues v;
  auto sum = v.input(0, 5);
  for (int r = 1; r < 64; ++r) sum = v.reduce(sum, v.input(r, 5));
  CHECK(v.describe(sum) == "sum of 64 (in(0,5)+in(1,5)+in(2,5)+in(3,5)+in(4,5)+in(5,5)+in(6,5)+...+in(63,5))");
}

// sharedAtom answers from runs of consecutive ranks while a value has few of them, and from the
// materialised multisets otherwise; both must give the smallest shared atom in (rank, index) order.
TEST_CASE("sharedAtom finds the smallest atom two values share, with runs and without") {
  ChunkValues v;
  auto range = [&](int lo, int hi, int index) {
    auto s = v.input(lo, index);
    for (int r = lo + 1; r <= hi; ++r) s = v.reduce(s, v.input(r, index));
    return s;
  };
  // A ring's wrapped range {6, 7, 0, 1} and its neighbours.
  const auto wrapped = v.reduce(range(6, 7, 2), range(0, 1, 2));
  CHECK_FALSE(v.sharedAtom(wrapped, range(2, 5, 2)));
  CHECK_FALSE(v.sharedAtom(wrapped, range(0, 7, 3)));  // another index
  REQUIRE(v.sharedAtom(wrapped, range(1, 6, 2)));
  CHECK(*v.sharedAtom(wrapped, range(1, 6, 2)) == Atom{1, 2});
  REQUIRE(v.sharedAtom(range(5, 7, 2), wrapped));
  CHECK(*v.sharedAtom(range(5, 7, 2), wrapped) == Atom{6, 2});
  // Every other rank: more runs than are kept, so the multisets decide.
  auto even = v.input(0, 1), odd = v.input(1, 1);
  for (int r = 2; r < 40; r += 2) {
    even = v.reduce(even, v.input(r, 1));
    odd = v.reduce(odd, v.input(r + 1, 1));
  }
  CHECK_FALSE(v.sharedAtom(even, odd));
  REQUIRE(v.sharedAtom(even, v.input(38, 1)));
  CHECK(*v.sharedAtom(even, v.input(38, 1)) == Atom{38, 1});
  // A value with an atom twice has no runs either.
  const auto twice = v.reduce(v.reduce(v.input(0, 0), v.input(1, 0)), v.input(0, 0));
  REQUIRE(v.sharedAtom(twice, v.input(1, 0)));
  CHECK(*v.sharedAtom(twice, v.input(1, 0)) == Atom{1, 0});
  CHECK_FALSE(v.sharedAtom(twice, v.input(2, 0)));
  CHECK(v.sumOfInputs(8, 2) == range(0, 7, 2));
}

TEST_CASE("values stay interned while the table grows, and a sum of inputs is found in any order") {
  ChunkValues v;
  // A ring's order: in(5)+in(6)+...+in(299)+in(0)+...+in(4), past many growths of the table.
  constexpr int32_t kRanks = 300;
  std::vector<ChunkValues::Id> ringPrefixes;
  auto ring = v.input(5, 0);
  for (int32_t k = 1; k < kRanks; ++k) {
    ring = v.reduce(ring, v.input((5 + k) % kRanks, 0));
    ringPrefixes.push_back(ring);
  }
  const size_t before = v.size();
  // The postcondition's sum is the ring's value, and asking for it interns nothing new.
  CHECK(v.sumOfInputs(kRanks, 0) == ring);
  CHECK(v.size() == before);
  // Rebuilt in another order after the growths, every prefix is found again.
  auto again = v.input(5, 0);
  for (int32_t k = 1; k < kRanks; ++k) {
    again = v.reduce(v.input((5 + k) % kRanks, 0), again);
    CHECK(again == ringPrefixes[static_cast<size_t>(k - 1)]);
  }
  CHECK(v.size() == before);
  // A sum no program built (index 1) is built then, and describes itself.
  const auto built = v.sumOfInputs(kRanks, 1);
  CHECK(v.size() > before);
  CHECK(v.atomCount(built) == kRanks);
  CHECK(v.atoms(built).front() == Atom{0, 1});
  CHECK(v.atoms(built).back() == Atom{kRanks - 1, 1});
  CHECK(v.sumOfInputs(kRanks, 1) == built);
}
