#include <catch2/catch.hpp>

#include "sim/fluid_network.hpp"

using namespace ccforge::sim;

TEST_CASE("max-min fairness: a capped transfer leaves its share to the others") {
  // Link 0 carries 10 units/s. A is capped at 2, B and C share the remaining 8.
  FluidNetwork n({10});
  n.start({0}, 8, 2);     // A: 4 s
  n.start({0}, 8, 100);   // B: 8 at 4/s = 2 s
  n.start({0}, 12, 100);  // C: 8 at 4/s in 2 s, then 4 at 8/s in 0.5 s
  CHECK(n.nextCompletion() == Approx(2));
  CHECK(n.advanceTo(2) == std::vector<int64_t>{1});
  CHECK(n.nextCompletion() == Approx(2.5));
  CHECK(n.advanceTo(2.5) == std::vector<int64_t>{2});
  CHECK(n.nextCompletion() == Approx(4));
  CHECK(n.advanceTo(4) == std::vector<int64_t>{0});
  CHECK(n.active() == 0);
}

TEST_CASE("a transfer is limited by the tightest link on its route") {
  FluidNetwork n({10, 4});
  n.start({0, 1}, 8, 100);  // 4/s on link 1: 2 s
  n.start({0}, 12, 100);    // the 6/s link 0 has left: 2 s
  CHECK(n.nextCompletion() == Approx(2));
  CHECK(n.advanceTo(2) == std::vector<int64_t>{0, 1});
}
