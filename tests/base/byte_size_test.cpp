// The one byte-size grammar (base/byte_size.hpp): the forms every command accepts, by hand.
#include <catch2/catch.hpp>

#include "base/byte_size.hpp"

using namespace ccforge::base;

TEST_CASE("byte sizes: nccl-tests' forms and ccforge's mean the same, every K is 1024") {
  for (const char* kib : {"1K", "1k", "1KB", "1kb", "1KiB", "1kib"}) CHECK(parseByteSize(kib) == 1024);
  CHECK(parseByteSize("8") == 8);
  CHECK(parseByteSize("8B") == 8);
  CHECK(parseByteSize("128M") == 134217728);
  CHECK(parseByteSize("2GiB") == 2147483648);
  CHECK(parseByteSize("1T") == uint64_t{1} << 40);
  CHECK(parseByteSize("0") == 0);
  CHECK(parseByteSize("18446744073709551615") == UINT64_MAX);
  CHECK(parseByteSize("16777215T") == uint64_t{16777215} << 40);
}

TEST_CASE("byte sizes: what is not a size says why") {
  CHECK_THROWS_WITH(parseByteSize(""), Catch::Contains("does not start with a number"));
  CHECK_THROWS_WITH(parseByteSize("-8"), Catch::Contains("size '-8' does not start with a number"));
  CHECK_THROWS_WITH(parseByteSize("MB"), Catch::Contains("does not start with a number"));
  CHECK_THROWS_WITH(parseByteSize("1 KB"), Catch::Contains("unknown unit ' KB'"));
  CHECK_THROWS_WITH(parseByteSize("1KIBB"), Catch::Contains("unknown unit"));
  CHECK_THROWS_WITH(parseByteSize("1P"), Catch::Contains("unknown unit 'P'"));
  CHECK_THROWS_WITH(parseByteSize("1.5G"), Catch::Contains("unknown unit '.5G'"));
  CHECK_THROWS_WITH(parseByteSize("18446744073709551616"), Catch::Contains("is too large"));
  CHECK_THROWS_WITH(parseByteSize("16777216T"), Catch::Contains("is too large"));
}

TEST_CASE("byte sizes: the exact name takes the largest unit that divides, the rounded one four digits") {
  CHECK(byteSizeName(0) == "0 B");
  CHECK(byteSizeName(3000) == "3000 B");
  CHECK(byteSizeName(1024) == "1 KiB");
  CHECK(byteSizeName(1536) == "1536 B");
  CHECK(byteSizeName(uint64_t{3} << 29) == "1536 MiB");
  CHECK(byteSizeName(uint64_t{1} << 30) == "1 GiB");
  CHECK(byteSizeName(uint64_t{5} << 40) == "5 TiB");
  CHECK(approximateByteSize(512) == "512 B");
  CHECK(approximateByteSize(1536) == "1.5 KiB");
  CHECK(approximateByteSize(3.0 * (uint64_t{1} << 30) + 12345) == "3 GiB");
  CHECK(approximateByteSize(3125.0) == "3.052 KiB");
}
