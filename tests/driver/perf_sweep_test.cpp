// The sweep rows run and simulate share (driver/perf_sweep.hpp).
#include <catch2/catch.hpp>

#include "driver/perf_sweep.hpp"

using namespace ccforge;
using namespace ccforge::driver;

TEST_CASE("sweep rows: per-rank counts, N/A, skipped sizes and reasons, and the cells to measure") {
  PerfTable table;
  // An allgather of floats on 4 ranks whose program serves only out of place, and is not
  // selected at 4096 B.
  const std::vector<SweepCall> measured = addSweepRows(
      table, {8, 64, 4096}, {.elementBytes = 4, .multiplier = 4, .type = "float", .redop = "none"},
      [](semantics::CallForm f) { return f == semantics::CallForm::OutOfPlace; },
      [](const SweepCall& c) { return c.bytes == 4096 ? std::string("size window 0..1024") : ""; });
  REQUIRE(table.rows.size() == 3);
  CHECK(table.rows[0].count == 0);
  CHECK(table.rows[1].count == 4);  // 64 B / 4 B / 4 ranks, as nccl-tests prints it
  CHECK(table.rows[2].count == 256);
  CHECK(table.rows[0].outOfPlace.status == PerfCell::Status::Skipped);
  CHECK(table.rows[0].outOfPlace.reason == "8 B is not a whole number of 4-byte elements per rank");
  CHECK(table.rows[2].outOfPlace.status == PerfCell::Status::Skipped);
  CHECK(table.rows[2].outOfPlace.reason == "size window 0..1024");
  for (const PerfRow& r : table.rows) CHECK(r.inPlace.status == PerfCell::Status::NotApplicable);
  REQUIRE(measured.size() == 1);
  CHECK(measured[0].row == 1);
  CHECK(measured[0].count == 4);
  CHECK(&cellOf(table, measured[0]) == &table.rows[1].outOfPlace);
  CHECK(cellOf(table, measured[0]).status == PerfCell::Status::Measured);
}
