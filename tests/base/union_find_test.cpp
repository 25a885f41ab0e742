#include <catch2/catch.hpp>

#include "base/union_find.hpp"

TEST_CASE("union-find: a set's root is its smallest member, whatever order unites it") {
  ccforge::base::UnionFind sets(6);
  sets.unite(5, 3);
  sets.unite(4, 5);
  CHECK(sets.find(4) == 3);
  CHECK(sets.find(5) == 3);
  sets.unite(3, 1);
  for (int32_t v : {1, 3, 4, 5}) CHECK(sets.find(v) == 1);
  CHECK(sets.find(0) == 0);
  CHECK(sets.find(2) == 2);
  sets.unite(2, 2);
  CHECK(sets.find(2) == 2);
}
