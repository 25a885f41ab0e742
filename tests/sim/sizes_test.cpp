#include <catch2/catch.hpp>

#include "sim/sizes.hpp"

using namespace ccforge::sim;

TEST_CASE("sizes: ranges double, lists list, units are powers of 1024") {
  CHECK(parseSizes("1KB..8KB") == std::vector<uint64_t>{1024, 2048, 4096, 8192});
  CHECK(parseSizes("1KB..1GB").size() == 21);
  CHECK(parseSizes("3000,1M,2GB") == std::vector<uint64_t>{3000, 1 << 20, uint64_t{2} << 30});
  CHECK(parseSizes("5B") == std::vector<uint64_t>{5});
}

TEST_CASE("malformed sizes are refused") {
  CHECK_THROWS_WITH(parseSizes("0"), Catch::Contains("is zero"));
  CHECK_THROWS_WITH(parseSizes("1GB..1KB"), Catch::Contains("runs backwards"));
  CHECK_THROWS_WITH(parseSizes("12XB"), Catch::Contains("unknown unit"));
  CHECK_THROWS_WITH(parseSizes("MB"), Catch::Contains("does not start with a number"));
  CHECK_THROWS_WITH(parseSizes("1B..2TB"), Catch::Contains("above 1 TiB"));
  CHECK_THROWS_WITH(parseSizes("1B..1GB,1B..1GB,1B..1GB"), Catch::Contains("at most 64 sizes"));
  CHECK_THROWS_WITH(parseSizes("2048GB"), Catch::Contains("above 1 TiB"));
}
