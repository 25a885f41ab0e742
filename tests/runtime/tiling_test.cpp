#include <catch2/catch.hpp>

#include "runtime/core/tiling.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

TEST_CASE("maxAllowedCount is the tile over the chunk, clamped to 1..71") {
  // 2 MiB Simple tile, f32.
  CHECK(makeTiling(1024, 4, semantics::tileBytes(ir::Protocol::Simple), ir::Protocol::Simple, 0).maxAllowedCount ==
        71);  // 4 KiB chunks: 512 fit
  CHECK(makeTiling(65536, 4, semantics::tileBytes(ir::Protocol::Simple), ir::Protocol::Simple, 0).maxAllowedCount ==
        8);  // 256 KiB chunks
  CHECK(makeTiling(524288, 4, semantics::tileBytes(ir::Protocol::Simple), ir::Protocol::Simple, 0).maxAllowedCount ==
        1);  // chunk == tile
  CHECK(
      makeTiling(3 * 524288, 4, semantics::tileBytes(ir::Protocol::Simple), ir::Protocol::Simple, 0).maxAllowedCount ==
      1);  // chunk > tile: 0 clamps to 1
}

TEST_CASE("tiles cover a chunk, the last one shorter") {
  const Tiling t = makeTiling(2500, 4, 4000, ir::Protocol::Simple, 0);  // tile = 1000 elements
  CHECK(t.tileElems == 1000);
  CHECK(t.tiles == 3);
  CHECK(t.tileLength(0) == 1000);
  CHECK(t.tileLength(2) == 500);
  CHECK(t.maxAllowedCount == 1);
  // Chunk offset 3, tile 2: elements 3 * 2500 + 2000.
  CHECK(t.transferStart(3, 0, 2) == 9500);
  CHECK(t.transferLength(1, 0, 2) == 500);
}

TEST_CASE("a step with cnt c issues ceil(c / maxAllowedCount) transfers over consecutive chunks") {
  const Tiling t = makeTiling(100, 4, 800, ir::Protocol::Simple, 0);  // 2 chunks fit a tile
  REQUIRE(t.maxAllowedCount == 2);
  REQUIRE(t.tiles == 1);
  CHECK(t.transfersFor(5) == 3);
  CHECK(t.transferStart(10, 0, 0) == 1000);
  CHECK(t.transferLength(5, 0, 0) == 200);
  CHECK(t.transferStart(10, 1, 0) == 1200);
  CHECK(t.transferLength(5, 2, 0) == 100);
}

TEST_CASE("Simple transfers are two slices split at a 16-byte boundary, LL transfers one") {
  const Tiling simple = makeTiling(1000, 2, semantics::tileBytes(ir::Protocol::Simple), ir::Protocol::Simple, 0);
  CHECK(simple.slicesPerTransfer == 2);
  CHECK(simple.slotsInFlight == 4);
  CHECK(simple.sliceBegin(1000, 1) == 504);  // 500 rounded up to 8 halves
  CHECK(simple.sliceEnd(1000, 0) == 504);
  CHECK(simple.sliceEnd(1000, 1) == 1000);
  CHECK(simple.sliceBegin(3, 1) == 3);  // tiny transfers: an empty second slice
  CHECK(simple.sliceSlotElems >= 504);
  const Tiling ll = makeTiling(1000, 4, semantics::tileBytes(ir::Protocol::LL), ir::Protocol::LL, 0);
  CHECK(ll.slicesPerTransfer == 1);
  CHECK(ll.slotsInFlight == 8);
  CHECK(ll.maxAllowedCount == 8);
  CHECK(ll.sliceSlotLines == Tiling::linesFor(8 * 1000 * 4));  // 8 chunks per transfer, 2 lines per 8 bytes
  CHECK(makeTiling(1000, 4, semantics::tileBytes(ir::Protocol::LL), ir::Protocol::LL, 3).slotsInFlight ==
        3);  // 3 transfers in flight
  CHECK(makeTiling(1000, 4, semantics::tileBytes(ir::Protocol::Simple), ir::Protocol::Simple, 1).slotsInFlight ==
        2);  // 1 transfer = 2 slices
}
