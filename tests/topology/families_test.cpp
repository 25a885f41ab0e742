#include <catch2/catch.hpp>

#include "topology/distances.hpp"
#include "topology/families.hpp"

using namespace ccforge::topo;

namespace {

struct Shape {
  size_t gpus;
  size_t links;
  int32_t diameter;
};

Shape shapeOf(const Topology& t) { return {t.gpus().size(), t.links().size(), *diameter(stepDistances(t))}; }

}  // namespace

TEST_CASE("ring, line, star, fully connected and switch") {
  auto check = [](const Topology& t, Shape want) {
    Shape got = shapeOf(t);
    CHECK(got.gpus == want.gpus);
    CHECK(got.links == want.links);
    CHECK(got.diameter == want.diameter);
  };
  check(familyTopology(Family::Ring, {8}), {8, 16, 4});
  check(familyTopology(Family::Ring, {8}, true), {8, 8, 7});
  check(familyTopology(Family::Ring, {2}), {2, 2, 1});
  check(familyTopology(Family::Line, {5}), {5, 8, 4});
  check(familyTopology(Family::Star, {5}), {5, 8, 2});
  check(familyTopology(Family::FullyConnected, {5}), {5, 20, 1});
  check(familyTopology(Family::Switch, {4}), {4, 8, 1});
}

TEST_CASE("mesh, torus and hypercube") {
  auto check = [](const Topology& t, Shape want) {
    Shape got = shapeOf(t);
    CHECK(got.gpus == want.gpus);
    CHECK(got.links == want.links);
    CHECK(got.diameter == want.diameter);
  };
  check(familyTopology(Family::Mesh, {3, 3}), {9, 24, 4});
  check(familyTopology(Family::Torus, {4, 4}), {16, 64, 4});
  check(familyTopology(Family::Torus, {2, 3}), {6, 18, 2});
  check(familyTopology(Family::Torus, {4, 4, 4}), {64, 384, 6});
  check(familyTopology(Family::Torus, {5}, true), {5, 5, 4});
  check(familyTopology(Family::Hypercube, {3}), {8, 24, 3});
  check(familyTopology(Family::Hypercube, {0}), {1, 0, 0});
}

TEST_CASE("nonsensical family shapes are refused") {
  CHECK_THROWS_WITH(familyTopology(Family::Mesh, {}), Catch::Contains("1 to 3 dimensions"));
  CHECK_THROWS_WITH(familyTopology(Family::Mesh, {2, 2, 2, 2}), Catch::Contains("1 to 3 dimensions"));
  CHECK_THROWS_WITH(familyTopology(Family::Torus, {100, 100}), Catch::Contains("at most 4096 GPUs"));
  CHECK_THROWS_WITH(familyTopology(Family::Hypercube, {13}), Catch::Contains("dimension must be 0 to 12"));
  CHECK_THROWS_WITH(familyTopology(Family::Star, {3}, true),
                    Catch::Contains("'directed' applies to ring and torus only"));
}
